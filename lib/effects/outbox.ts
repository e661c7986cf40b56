/**
 * Writing a confirmed action's effects into the outbox, inside the confirm's transaction, and
 * waking this process's relay once that transaction has committed.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { insertEffects } from "@/db/queries/effects";
import { EFFECT_PAYLOADS, type EffectKind, type EffectRequest } from "./kinds";

/**
 * The idempotency key every provider request for this effect carries: the operation id (the
 * action id) and the kind, so the same effect always presents the same key, whichever relay or
 * process sends it. `generation` > 1 only after a provider replayed a stored server error for the
 * previous key while it holds no such effect (lib/effects/relay.ts).
 */
export function idempotencyKey(operationId: string, kind: EffectKind, generation = 1): string {
  const key = `rd-${operationId}-${kind}`;
  return generation > 1 ? `${key}-${generation}` : key;
}

/** Stores the effects (must run inside the confirm's writeTransaction). Returns how many. */
export async function enqueueEffects({
  actionId,
  effects,
  now,
}: {
  actionId: string;
  effects: EffectRequest[];
  now: Date;
}): Promise<number> {
  const rows = effects.map((e) => ({
    id: `ef_${randomUUID()}`,
    actionId,
    kind: e.kind,
    idempotencyKey: idempotencyKey(actionId, e.kind),
    // Parsed by the kind's schema: what the relay will parse back is exactly what was checked.
    payload: EFFECT_PAYLOADS[e.kind].parse(e.payload),
    status: "pending" as const,
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  return (await insertEffects(rows)).length;
}
