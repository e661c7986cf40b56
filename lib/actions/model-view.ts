/**
 * What the model sees of a tool call: data only, errors as codes and messages it can explain,
 * never internals. A proposal tells the model that the app, not the model, asks the customer.
 */
import type { ToolCallOutcome } from "./executor";

export type ModelToolOutput =
  | { ok: true; data: unknown }
  | { ok: true; status: "confirmation_required"; actionId: string; message: string }
  | {
      ok: false;
      error: {
        status: string;
        code: string;
        message: string;
        issues?: { path: string; message: string }[];
      };
    };

/** What the model is told of a proposed write: the app, not the model, asks the customer. */
export const PROPOSAL_NOTE =
  "Nothing has been created yet. The customer now sees a confirmation card and decides with Confirm or Cancel.";

export function modelView(outcome: ToolCallOutcome): ModelToolOutput {
  switch (outcome.kind) {
    case "result":
    case "existing":
      return { ok: true, data: outcome.data };
    case "proposal":
      return {
        ok: true,
        status: "confirmation_required",
        actionId: outcome.action.id,
        message: PROPOSAL_NOTE,
      };
    case "error": {
      const { status, code, message, issues } = outcome;
      return { ok: false, error: { status, code, message, ...(issues ? { issues } : {}) } };
    }
  }
}
