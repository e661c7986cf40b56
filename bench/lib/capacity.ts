/**
 * The capacity phase: each kind of request alone at saturation, `clients` in flight, so the
 * server's throughput per kind (requests/s) can be compared within one run. The goal asks how
 * many health requests one chat turn costs: health req/s ÷ status-turn req/s.
 *
 * Each customer does what a customer does, in its own chat, so no turn waits on another's lease
 * and no proposal supersedes another: every customer signs in and opens a chat (not measured),
 * then all status turns run, then all return proposals (same chats, as in the flow), then all
 * confirms of those proposals. The floors run last, with the stream sized like these turns.
 */
import { HttpCustomer } from "./client";
import { runFloors } from "./floor";
import { type TurnShape, turn } from "./flow";
import { pool, Recorder, type StepStats } from "./stats";

export const CAPACITY_KINDS = [
  "floor: health",
  "floor: stream",
  "turn: order status",
  "turn: return proposal",
  "confirm",
] as const;

export type CapacityPhase = {
  clients: number;
  kinds: StepStats[];
  /** health req/s ÷ order-status turn req/s. */
  healthPerTurn: number;
  failures: string[];
};

type Person = { email: string; orderId: string };
type Customer = { c: HttpCustomer; chatId: string; orderId: string; actionId?: string };

export async function runCapacity(
  base: string,
  people: Person[],
  { clients, floorCount }: { clients: number; floorCount: number },
): Promise<CapacityPhase> {
  const prep = new Recorder();
  const ready: Customer[] = [];
  await pool(people, clients, async (who) => {
    await prep.time("prepare", async () => {
      const c = await HttpCustomer.signIn(base, who.email);
      ready.push({ c, chatId: await c.newChat(), orderId: who.orderId });
      return { ok: true, value: null };
    });
  });
  if (prep.failures.length) throw new Error(`capacity: preparation failed: ${prep.failures[0]}`);

  const rec = new Recorder();
  const shapes: TurnShape[] = [];
  await pool(ready, clients, async (u) => {
    await rec.time("turn: order status", async () => {
      const t = await turn(u.c, u.chatId, `Where is my order ${u.orderId}?`);
      shapes.push({ bytes: t.body.length, events: t.chunks.length });
      const answered = t.chunks.some(
        (k) => k.type === "tool-output-available" && JSON.stringify(k).includes(u.orderId),
      );
      return { ok: answered, value: null, bytes: t.body.length, why: `${t.status}` };
    });
  });
  await pool(ready, clients, async (u) => {
    u.actionId = await rec.time("turn: return proposal", async () => {
      const t = await turn(
        u.c,
        u.chatId,
        `Create a return request for order ${u.orderId}. The item arrived damaged.`,
      );
      shapes.push({ bytes: t.body.length, events: t.chunks.length });
      const id = (t.chunks.find((k) => k.type === "data-pending-action")?.data as { id?: string })
        ?.id;
      return { ok: !!id, value: id, bytes: t.body.length, why: `${t.status}` };
    });
  });
  await pool(
    ready.filter((u) => u.actionId),
    clients,
    async (u) => {
      await rec.time("confirm", async () => {
        const res = await u.c.decide(u.actionId!, "confirm");
        const body = (await res.json()) as { action?: { status: string } };
        return {
          ok: res.status === 200 && body.action?.status === "executed",
          value: null,
          why: `${res.status}`,
        };
      });
    },
  );
  await runFloors(base, rec, { count: floorCount, concurrency: clients, shapes });

  const kinds = CAPACITY_KINDS.map((k) => rec.stats(k));
  const health = kinds[0]!.rps;
  const status = kinds[2]!.rps;
  return {
    clients,
    kinds,
    healthPerTurn: status > 0 ? health / status : Number.NaN,
    failures: rec.failures.map((f) => `capacity ${f}`),
  };
}
