/**
 * Conversation triage: the structured summary staff get for one chat. `TRIAGE_OUTPUT` is what
 * the model must produce (sent as the JSON schema of structured output, so it uses only what
 * OpenAI's strict mode accepts: enums and plain strings); `TRIAGE` is the stricter shape we
 * store, after the text fields are cut to one line of bounded length.
 */
import { z } from "zod";
import { TOOL_TRIAGE, type ToolTriageCategory } from "@/lib/tools/manifests";

/** The categories the write tools bring (their folders' meta.ts), then the ones of no tool. */
const GENERAL_CATEGORIES = ["order_status", "return_policy", "out_of_scope", "general"] as const;
export type TriageCategory = ToolTriageCategory | (typeof GENERAL_CATEGORIES)[number];
export const TRIAGE_CATEGORIES = [
  ...TOOL_TRIAGE.map((t) => t.category),
  ...GENERAL_CATEGORIES,
] as unknown as [TriageCategory, ...TriageCategory[]];
export const SENTIMENTS = ["positive", "neutral", "negative"] as const;
export const URGENCIES = ["low", "medium", "high"] as const;

export const TRIAGE_OUTPUT = z.object({
  category: z.enum(TRIAGE_CATEGORIES).describe("What the customer mainly wanted"),
  sentiment: z.enum(SENTIMENTS).describe("The customer's mood, from their own messages"),
  urgency: z.enum(URGENCIES).describe("How soon staff should look at this chat"),
  summary: z.string().describe("One sentence: what the customer wanted and what happened"),
  nextStep: z.string().describe("One sentence: what support staff should do next"),
});

export const SUMMARY_MAX = 200;
export const NEXT_STEP_MAX = 240;

const oneLine = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\r\n]+$/);

export const TRIAGE = z.object({
  category: z.enum(TRIAGE_CATEGORIES),
  sentiment: z.enum(SENTIMENTS),
  urgency: z.enum(URGENCIES),
  summary: oneLine(SUMMARY_MAX),
  nextStep: oneLine(NEXT_STEP_MAX),
});
export type Triage = z.infer<typeof TRIAGE>;

/** What chats.triage holds: the triage plus when, by what, and how far into the chat. */
export const STORED_TRIAGE = z.object({
  triage: TRIAGE,
  generatedAt: z.iso.datetime(),
  /** The staff member who ran it (the user id); absent only on triage stored before it was kept. */
  ranBy: z.string().optional(),
  /** "model": structured output of the configured model; "rules": the offline computation. */
  method: z.enum(["model", "rules"]),
  model: z.object({ provider: z.enum(["offline", "openai"]), id: z.string() }),
  /** Which triage instructions/rules produced it (changes when they change). */
  promptVersion: z.string(),
  /** The last message seq the triage saw; newer messages make it out of date. */
  throughSeq: z.number().int().min(0),
});
export type StoredTriage = z.infer<typeof STORED_TRIAGE>;

/** Stored JSON from the database; anything unreadable counts as "no triage yet". */
export function parseStoredTriage(value: unknown): StoredTriage | null {
  const parsed = STORED_TRIAGE.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Collapses whitespace to one line and cuts at `max` characters (with an ellipsis). */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  // Never split a surrogate pair (an emoji) in half.
  const cut = line.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, "");
  return `${cut.trimEnd()}…`;
}

/** Model output -> the stored shape: free text made one bounded line, then validated. */
export function normalizeTriage(output: z.infer<typeof TRIAGE_OUTPUT>): Triage {
  return TRIAGE.parse({
    ...output,
    summary: clip(output.summary, SUMMARY_MAX),
    nextStep: clip(output.nextStep, NEXT_STEP_MAX),
  });
}
