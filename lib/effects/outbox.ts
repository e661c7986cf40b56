/**
 * Writing a confirmed action's effects into the outbox, inside the confirm's transaction, and
 * waking this process's relay once that transaction has committed.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { insertEffects, insertEffectsIfAbsent, type NewEffectRow } from "@/db/queries/effects";
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
  return (await insertEffects(effectRows(actionId, effects, now))).length;
}

/**
 * Stores effects that follow something else (a refund's outcome mails the customer; a received
 * return's refund), inside the caller's transaction, unless the action already has an effect of
 * that kind. The kinds stored now.
 */
export async function enqueueFollowUps({
  actionId,
  effects,
  now,
}: {
  actionId: string;
  effects: EffectRequest[];
  now: Date;
}): Promise<EffectKind[]> {
  const rows = await insertEffectsIfAbsent(effectRows(actionId, effects, now));
  return rows.map((r) => r.kind as EffectKind);
}

function effectRows(actionId: string, effects: EffectRequest[], now: Date): NewEffectRow[] {
  return effects.map((e) => ({
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
}
