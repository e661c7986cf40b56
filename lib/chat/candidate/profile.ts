/**
 * The two model profiles: the live one, which answers the customer, and the candidate
 * (CANDIDATE_*), which may only repeat turns in shadow. A profile's fingerprint names what makes
 * it behave as it does: the provider, the model, the prompt version and the tools as the model
 * sees them. Every turn records the live fingerprint, every comparison both, so figures from
 * different profiles are never mixed.
 */
import "server-only";
import { createHash } from "node:crypto";
import { type ChatModel, getCandidateChatModel, getChatModel } from "@/lib/ai/models";
import { ACTIVE_PROMPT_VERSION, type SupportPromptVersion } from "@/lib/ai/prompts";
import { env } from "@/lib/env";
import { advertisedTools } from "../turn-tools";

export type ModelProfile = ChatModel & {
  promptVersion: SupportPromptVersion;
  fingerprint: string;
};

/** sha256 over the provider, the model, the prompt version and every advertised tool's schema. */
export function profileFingerprint(p: {
  provider: string;
  model: string;
  promptVersion: string;
}): string {
  return createHash("sha256")
    .update(JSON.stringify([p.provider, p.model, p.promptVersion, advertisedTools()]))
    .digest("hex")
    .slice(0, 16);
}

// The tools and prompts are fixed for the life of the process, so one hash per configuration.
const fingerprints = new Map<string, string>();
function withFingerprint(chat: ChatModel, promptVersion: SupportPromptVersion): ModelProfile {
  const key = JSON.stringify([chat.info.provider, chat.info.id, promptVersion]);
  let fingerprint = fingerprints.get(key);
  if (!fingerprint) {
    fingerprint = profileFingerprint({
      provider: chat.info.provider,
      model: chat.info.id,
      promptVersion,
    });
    fingerprints.set(key, fingerprint);
  }
  return { ...chat, promptVersion, fingerprint };
}

export function liveProfile(): ModelProfile {
  return withFingerprint(getChatModel(), ACTIVE_PROMPT_VERSION);
}

/** The candidate profile, or null when CANDIDATE_MODE is off. */
export function candidateProfile(): ModelProfile | null {
  const e = env();
  if (e.CANDIDATE_MODE === "off") return null;
  return withFingerprint(getCandidateChatModel(), e.CANDIDATE_PROMPT_VERSION);
}
