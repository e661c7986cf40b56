/**
 * Probes from live load: a live turn (the real chat route, a loopback OpenAI-protocol model)
 * stores its anonymised profile; the probe builder (the one `npm run eval -- --probes` runs)
 * matches the stored mix with the eval's own utterances and no customer text; a change of the
 * live fingerprint marks the stored set stale; the previous set's lost scenarios run next to the
 * new set. SQLite, and PostgreSQL in the postgres project.
 */

import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages, probeSets, turnProfiles, user } from "@/db/schema";
import { raiseAlert } from "@/lib/alerts";
import { liveProfile } from "@/lib/chat/candidate/profile";
import { scenarioKey, TurnProfile } from "@/lib/chat/probes/mix";
import { profileOf, recordTurnProfile, turnProfilesSettled } from "@/lib/chat/probes/record";
import { probeStatus, probesToRun, rebuildProbeSet } from "@/lib/chat/probes/sets";
import { resetEnv } from "@/lib/env";
import { store, storeCustomer } from "@/lib/store";
import { toolDescriptors } from "@/lib/tools/registry";
import { probeCandidates, rowOfProbe } from "../../eval/probes";
import { Customer } from "../helpers/chat";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";

const WRITE_TOOLS = new Set(
  toolDescriptors()
    .filter((d) => d.access === "write")
    .map((d) => d.name),
);
/** What the customer typed: it must reach no profile and no probe. */
const SECRET = "Zebraquokka lives at Kastanienallee 77";

let model: OpenAIServer;
let stopModel: () => Promise<void>;
let anna: Customer;
let annaId: string;

beforeAll(async () => {
  ({ server: model, stop: stopModel } = await useLoopbackModel());
  anna = await Customer.signIn("anna@example.com");
  annaId = (await getDb().select().from(user).where(eq(user.email, "anna@example.com")))[0]!.id;
});
afterAll(async () => {
  await turnProfilesSettled();
  await stopModel();
});

const storedProfiles = async () =>
  (await getDb().select().from(turnProfiles)).map((r) => TurnProfile.parse(r.profile));

/** A turn's facts as a stored profile would come from it (the live turn test covers the path). */
async function facts(lang: "en" | "ru", tool: string | null, orderId: string | null) {
  return {
    userId: annaId,
    at: new Date(),
    fingerprint: liveProfile().fingerprint,
    lang,
    messages: 1,
    messageChars: SECRET.length,
    answerChars: 10,
    calls: tool
      ? [{ tool, args: { orderId, reason: "other", comment: SECRET }, unknownKeys: 0 }]
      : [],
    // What the tool read at the real store, as a live turn hears it (ToolContext.onOrderRead).
    orderReads: new Map(
      orderId ? [[orderId, await store().findOrder(await storeCustomer(annaId), orderId)]] : [],
    ),
    outcome: tool && WRITE_TOOLS.has(tool) ? ("proposed" as const) : ("answered" as const),
  };
}

describe("probes from live load", () => {
  it("a live turn stores its shape: language, counts, sizes, tools with argument shapes, order classes, outcome; never its text or values", async () => {
    model.enqueue(
      {
        type: "tool-calls",
        calls: [
          { name: "get_order_status", arguments: { orderId: "5120" } },
          { name: "get_order_status", arguments: { orderId: "4410" } },
        ],
      },
      { type: "text", text: "Order 5120 was delivered 45 days ago." },
    );
    const text = `Where are 5120 and 4410? ${SECRET}`;
    const chat = await anna.newChat();
    const t = await anna.say(chat, text);
    expect(t.errors).toEqual([]);
    await turnProfilesSettled();
    const rows = await getDb().select().from(turnProfiles);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.fingerprint).toBe(liveProfile().fingerprint);
    expect(TurnProfile.parse(rows[0]!.profile)).toEqual({
      lang: "en",
      messages: 1,
      sizes: { message: text.length, answer: "Order 5120 was delivered 45 days ago.".length },
      tools: [
        { tool: "get_order_status", args: { orderId: "string" } },
        { tool: "get_order_status", args: { orderId: "string" } },
      ],
      // 5120 is Anna's, delivered 45 days ago; 4410 is Boris's.
      orders: ["delivered_past_window", "foreign"],
      // The lookup of Boris's order was refused (not hers): a policy refusal in the turn.
      outcome: "refused",
    });
    const stored = JSON.stringify(rows[0]);
    for (const s of ["Zebraquokka", "Kastanienallee", "5120", "4410", "delivered 45"])
      expect(stored).not.toContain(s);
  });

  it("classifies an order from the tool's own read only: one no tool read is unknown", async () => {
    const base = await facts("en", "get_order_status", "8041");
    const unread = profileOf({ ...base, orderReads: new Map() });
    expect((await unread).orders).toEqual(["unknown"]);
    // The same order as the store showed it to the tool: shipped.
    expect((await profileOf(base)).orders).toEqual(["shipped"]);
    // Not shown to her (null) but known to our own tables: someone else's.
    expect((await profileOf({ ...base, orderReads: new Map([["8041", null]]) })).orders).toEqual([
      "foreign",
    ]);
  });

  it("the probe set matches the stored profile mix, from the eval's own utterances only", async () => {
    // A mix of 20 turns: 10 shipped-order status questions, 6 cancellations of a processing
    // order, 3 Russian returns of a delivered order within the window, the live turn above.
    const plan: [number, "en" | "ru", string, string][] = [
      [10, "en", "get_order_status", "8041"],
      [6, "en", "cancel_order", "3004"],
      [3, "ru", "create_return_request", "7718"],
    ];
    for (const [n, lang, tool, order] of plan)
      for (let i = 0; i < n; i++) await recordTurnProfile(await facts(lang, tool, order));
    const profiles = await storedProfiles();
    expect(profiles).toHaveLength(20);
    // The comment's text became "string": no value is kept.
    expect(JSON.stringify(profiles)).not.toContain("Zebraquokka");

    const set = await rebuildProbeSet({ candidates: probeCandidates(), size: 20 });
    const want = new Map<string, number>();
    for (const p of profiles) {
      const key = scenarioKey({ ...p, tools: p.tools.map((x) => x.tool) }, WRITE_TOOLS);
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    expect(new Map(set.mix.scenarios.map((s) => [s.scenario, s.share * 20]))).toEqual(want);
    expect(want.get("en|get_order_status|shipped")).toBe(10);
    expect(want.get("en|cancel_order|processing")).toBe(6);
    expect(want.get("ru|create_return_request|delivered_within_window")).toBe(3);
    // Each scenario got probes in its share (a rare one at least one), all of that scenario.
    const got = new Map<string, number>();
    for (const p of set.probes) got.set(p.scenario, (got.get(p.scenario) ?? 0) + 1);
    for (const [key, n] of want) expect(got.get(key)).toBe(Math.max(1, Math.round(n)));
    for (const p of set.probes) {
      const row = rowOfProbe(p.source);
      expect(row).not.toBeNull();
      // The probe's text is its table row's, word for word, and the row is of its scenario.
      expect(p.say).toEqual(row!.say);
      expect(scenarioKey(p, WRITE_TOOLS)).toBe(p.scenario);
    }
    expect(set.mix.scenarios.every((s) => s.matched === "exact")).toBe(true);

    // Nothing any customer typed is in the stored set.
    const [stored] = await getDb().select().from(probeSets);
    const json = JSON.stringify(stored);
    const typed = (await getDb().select().from(messages)).filter((m) => m.role === "user");
    expect(typed.length).toBeGreaterThan(0);
    for (const m of typed)
      for (const part of m.parts as { type: string; text?: string }[])
        if (part.type === "text" && part.text) expect(json).not.toContain(part.text);
    expect(json).not.toContain("Zebraquokka");
  });

  it("a change of the live fingerprint marks the probe set stale until it is rebuilt", async () => {
    const before = await probeStatus();
    expect(before.stale).toBe(false);
    expect(before.set!.fingerprint).toBe(liveProfile().fingerprint);
    const model = process.env.OPENAI_MODEL;
    process.env.OPENAI_MODEL = "loopback-2";
    resetEnv();
    try {
      const after = await probeStatus();
      expect(after.liveFingerprint).not.toBe(before.liveFingerprint);
      expect(after).toMatchObject({
        stale: true,
        reason: "fingerprint",
        set: { fingerprint: before.liveFingerprint },
      });
      await rebuildProbeSet({ candidates: probeCandidates(), size: 20 });
      expect((await probeStatus()).stale).toBe(false);
    } finally {
      process.env.OPENAI_MODEL = model;
      resetEnv();
    }
  });

  it("a drift alert on the live profile after the set was built marks it stale until it is rebuilt", async () => {
    const built = await rebuildProbeSet({ candidates: probeCandidates(), size: 20 });
    const live = liveProfile().fingerprint;
    const later = (ms: number) => new Date(built.builtAt.getTime() + ms);
    // Another profile's drift (the candidate's, an old model's) says nothing of live load.
    await raiseAlert({
      kind: "drift.breach",
      dedupeKey: `drift:other:${built.id}`,
      fingerprint: "another-profile",
      at: later(1000),
      detail: {},
    });
    expect(await probeStatus()).toMatchObject({ stale: false, reason: null });
    await raiseAlert({
      kind: "drift.breach",
      dedupeKey: `drift:${live}:${built.id}`,
      fingerprint: live,
      at: later(2000),
      detail: {},
    });
    expect(await probeStatus()).toMatchObject({
      stale: true,
      reason: "drift",
      driftSince: later(2000),
      set: { id: built.id, fingerprint: live },
    });
    const rebuilt = await rebuildProbeSet({
      candidates: probeCandidates(),
      size: 20,
      now: later(3000),
    });
    expect(await probeStatus()).toMatchObject({ stale: false, reason: null });
    // The rebuilt set is dated ahead of the clock: out of the way of the next test's sets.
    await getDb()
      .delete(probeSets)
      .where(inArray(probeSets.id, [built.id, rebuilt.id]));
  });

  it("the new set runs next to the previous one: a scenario that left the recent sample is still tried", async () => {
    const rare = "ru|create_return_request|delivered_within_window";
    const before = await rebuildProbeSet({ candidates: probeCandidates(), size: 20 });
    expect(before.probes.some((p) => p.scenario === rare)).toBe(true);
    // Recent load is all status questions: the rare scenario leaves the sample.
    for (let i = 0; i < 5; i++)
      await recordTurnProfile(await facts("en", "get_order_status", "8041"));
    const now = await rebuildProbeSet({ candidates: probeCandidates(), size: 20, sample: 5 });
    expect(now.probes.some((p) => p.scenario === rare)).toBe(false);
    const run = await probesToRun();
    expect(run.filter((r) => r.set === "new")).toHaveLength(now.probes.length);
    const carried = run.filter((r) => r.set === "previous");
    expect(carried.length).toBeGreaterThan(0);
    expect(carried.every((r) => r.probe.scenario !== "en|get_order_status|shipped")).toBe(true);
    expect(carried.some((r) => r.probe.scenario === rare)).toBe(true);
  });
  it("a key the model invented (the customer's address as an argument name) is counted, never stored", async () => {
    const ADDRESS = "Anna Petrova, Torstrasse 1, 10119 Berlin, anna@example.com, IBAN DE89";
    model.enqueue(
      {
        type: "tool-calls",
        calls: [
          {
            name: "get_order_status",
            arguments: { orderId: "5120", [ADDRESS]: "x", deep: { [ADDRESS]: { a: 1 } } },
          },
          { name: "get_order_status", arguments: { orderId: { [ADDRESS]: "x" } } },
        ],
      },
      { type: "text", text: "Sorry, I could not look that up." },
    );
    const before = (await getDb().select().from(turnProfiles)).length;
    const chat = await anna.newChat();
    const t = await anna.say(chat, "Where is 5120?");
    expect(t.errors).toEqual([]);
    await turnProfilesSettled();
    const rows = await getDb().select().from(turnProfiles);
    expect(rows).toHaveLength(before + 1);
    const mine = rows.find((r) => JSON.stringify(r.profile).includes("unknownKeys"))!;
    expect(TurnProfile.parse(mine.profile).tools).toEqual([
      // The invented key, and `deep` with the two keys inside it: four, never named.
      { tool: "get_order_status", args: { orderId: "string" }, unknownKeys: 4 },
      // An object where the schema declares a string keeps none of its keys.
      { tool: "get_order_status", args: { orderId: {} }, unknownKeys: 1 },
    ]);
    const stored = JSON.stringify(rows);
    for (const s of ["Torstrasse", "Petrova", "IBAN", "anna@example.com", "deep"])
      expect(stored).not.toContain(s);
  });
});
