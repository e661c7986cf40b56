/**
 * An action as the customer sees it: the core's PendingAction plus its tool's description in the
 * chat's language. Everything the browser shows about an action passes through here, so the card
 * never needs to know which tool it renders.
 */
import "server-only";
import { z } from "zod";
import { lastUserMessage } from "@/db/queries/chats";
import { describeAction } from "@/lib/actions/describe";
import type { PendingActionDto } from "@/lib/actions/dto";
import { writeToolOf } from "@/lib/actions/dto";
import { MAX_REVISIONS } from "@/lib/actions/revise";
import type { PendingActionPart } from "@/lib/api/parts";
import { isMailKind } from "@/lib/effects/kinds";
import { detectLanguage, type Locale } from "@/lib/text/language";
import { toolTranslator } from "@/lib/tools/catalogue";
import { COMMENT_MAX_CHARS } from "@/lib/tools/normalize";
import { type ActionDescription, type EffectState, effectsSettled } from "@/lib/tools/view";

export function actionDescription(
  action: PendingActionDto,
  lang: Locale,
  effects: readonly EffectState[] = [],
): ActionDescription {
  return describeAction(writeToolOf({ tool: action.tool, id: action.id }), action, lang, effects);
}

/**
 * `effects`: the action's effects outside our database with their status (a cancellation's
 * refund), which the outcome note reports; `outcome.settled` is false while one is under way.
 */
export function presentAction(
  action: PendingActionDto,
  lang: Locale,
  effects: readonly EffectState[] = [],
): PendingActionPart {
  const {
    confirmation: _c,
    notes: _n,
    outcome,
    ...view
  } = actionDescription(action, lang, effects);
  return {
    ...action,
    edit: editForm(action, lang),
    view: {
      ...view,
      // The customer's mails do not change the note: it is settled once the effects it reports
      // (a refund) are, and the card stops following it then.
      // A note that awaits something outside the relay (a return's parcel) is not settled either.
      outcome: outcome && {
        tone: outcome.tone,
        text: outcome.text,
        settled: !outcome.awaiting && effectsSettled(effects.filter((e) => !isMailKind(e.kind))),
      },
    },
  };
}

/**
 * The card's Edit form: the tool's editable fields, each with its current value and,
 * for a choice, the values its schema allows worded by the tool's own catalogue
 * (rows.<field>Value). Null once the action is decided or its chain has no revisions left.
 */
function editForm(action: PendingActionDto, lang: Locale): PendingActionPart["edit"] {
  if (action.status !== "pending" || action.revision >= MAX_REVISIONS) return null;
  const tool = writeToolOf({ tool: action.tool, id: action.id });
  if (tool.editable.length === 0) return null;
  // The keys follow the tool's field names (rows.<field>, rows.<field>Value), so they are not
  // literals the catalogue check can follow: each is looked up with has() and falls back to the
  // field's own name or value.
  const wording = toolTranslator(tool.name, lang);
  const shape = (tool.args as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const args = action.arguments as Record<string, unknown>;
  const label = (key: string) => (wording?.has(`rows.${key}`) ? wording(`rows.${key}`) : key);
  // A structured field (an address) is edited line by line: one field per key of its object,
  // named `<field>.<key>`; the form sends the whole object back, as revise expects.
  const fields = tool.editable.flatMap((name) => {
    const schema = shape[name] as { shape?: Record<string, unknown>; options?: unknown };
    if (schema?.shape) {
      const value = (args[name] ?? {}) as Record<string, unknown>;
      return Object.keys(schema.shape).map((key) => ({
        name: `${name}.${key}`,
        label: label(`${name}.${key}`),
        options: null,
        value: typeof value[key] === "string" ? (value[key] as string) : null,
        maxLength: maxLengthOf(schema.shape?.[key]),
      }));
    }
    const choices = Array.isArray(schema?.options) ? (schema.options as string[]) : null;
    const value = args[name];
    return [
      {
        name,
        label: label(name),
        options:
          choices?.map((v) => ({
            value: v,
            label: wording?.has(`rows.${name}Value`)
              ? wording(`rows.${name}Value`, { [name]: v })
              : v,
          })) ?? null,
        value: typeof value === "string" ? value : null,
        maxLength: choices ? null : COMMENT_MAX_CHARS,
      },
    ];
  });
  return fields.length === 0 ? null : { fields };
}

/** The longest text a field's schema accepts, as its JSON Schema says; null when it says none. */
function maxLengthOf(schema: unknown): number | null {
  if (!(schema instanceof z.ZodType)) return null;
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as {
    maxLength?: number;
    anyOf?: { maxLength?: number }[];
  };
  return json.maxLength ?? json.anyOf?.find((s) => s.maxLength)?.maxLength ?? null;
}

/**
 * The chat's language as the server can tell it: the customer's latest message with letters
 * among the newest ones stored, else English. The same detector as everywhere else.
 */
export async function storedChatLanguage(chatId: string): Promise<Locale> {
  const last = await lastUserMessage({ chatId });
  const parts = Array.isArray(last?.parts) ? (last.parts as unknown[]) : [];
  const text = parts
    .map((p) =>
      typeof p === "object" && p !== null && "text" in p && typeof p.text === "string"
        ? p.text
        : "",
    )
    .join(" ");
  return detectLanguage(text) ?? "en";
}
