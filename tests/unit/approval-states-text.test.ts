/**
 * The approval states as the web card and the terminal client word them, in both languages: the
 * notice before Confirm, waiting for our team, declined with the reason, expired while waiting,
 * and every new action status in "already decided" (never "unknown status").
 */
import { describe, expect, it } from "vitest";
import { renderCard } from "@/cli/chat/card";
import { ACTION_STATUSES } from "@/db/constants";
import { describeOutcome, outcomeFromStatus } from "@/lib/chat-client/action-view";
import { conversationText } from "@/lib/i18n/messages";
import { proposal } from "./chat-ui-fixtures";

describe("approval states on the card and in the terminal, in English and Russian", () => {
  it("words waiting, rejected (with the reason) and expired-while-waiting", () => {
    const en = conversationText("en");
    const ru = conversationText("ru");
    expect(describeOutcome({ kind: "awaiting_approval" }, en).text).toBe(
      "Confirmed. Waiting for our team's approval; nothing has been done yet.",
    );
    expect(describeOutcome({ kind: "awaiting_approval" }, ru).text).toBe(
      "Подтверждено. Ждём одобрения нашей команды; пока ничего не сделано.",
    );
    expect(describeOutcome({ kind: "rejected", reason: "Send photos." }, en).text).toBe(
      "Declined by our team: Send photos. Nothing was done.",
    );
    expect(describeOutcome({ kind: "rejected", reason: "Нужны фото." }, ru).text).toBe(
      "Отклонено нашей командой: Нужны фото. Ничего не сделано.",
    );
    expect(describeOutcome({ kind: "approval_expired" }, ru).text).toContain("не успела");
    expect(describeOutcome({ kind: "approval_expired" }, en).text).toContain("did not decide");
  });

  it("maps stored statuses: rejected keeps its reason, an expiry after a confirm says so", () => {
    expect(outcomeFromStatus("awaiting_approval", null)).toEqual({ kind: "awaiting_approval" });
    expect(outcomeFromStatus("rejected", null, { rejectReason: "No." })).toEqual({
      kind: "rejected",
      reason: "No.",
    });
    expect(outcomeFromStatus("expired", null, { confirmedAt: "2026-12-01T00:00:00Z" })).toEqual({
      kind: "approval_expired",
    });
    expect(outcomeFromStatus("expired", null, { confirmedAt: null })).toEqual({ kind: "expired" });
  });

  it("names every action status when another tab decided first", () => {
    for (const lang of ["en", "ru"] as const)
      for (const status of ACTION_STATUSES) {
        const text = describeOutcome(
          { kind: "already_decided", status },
          conversationText(lang),
        ).text;
        expect(text).not.toMatch(/unknown status|статус неизвестен/);
      }
  });

  it("the terminal card says before Confirm that staff approve it, in both languages", () => {
    const action = proposal({ requiresApproval: true });
    // The box wraps lines: read it back as one line of words.
    const flat = (box: string) => box.replace(/[│┌┐└┘─]/g, " ").replace(/\s+/g, " ");
    expect(flat(renderCard(action, "en"))).toContain(
      "our team approves this refund after you confirm",
    );
    expect(flat(renderCard(action, "ru"))).toContain("одобряет наша команда");
    expect(renderCard(proposal(), "en")).not.toContain("our team approves");
  });
});
