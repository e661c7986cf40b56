/**
 * What must hold in the database after any crash: read-only queries over the server's file,
 * each returning the offending rows (empty = the invariant holds), so a failure names them.
 */
import type Database from "better-sqlite3";

type Row = Record<string, unknown>;

const INVARIANTS: Record<string, string> = {
  "no action is left executing": "SELECT id FROM pending_actions WHERE status = 'executing'",
  "at most one return per order":
    "SELECT order_id, count(*) n FROM return_requests GROUP BY order_id HAVING n > 1",
  "every return row belongs to an executed action for the same order": `
    SELECT r.id, r.order_id, a.status FROM return_requests r
    LEFT JOIN pending_actions a ON a.id = r.action_id
    WHERE a.id IS NULL OR a.status <> 'executed' OR json_extract(a.arguments, '$.orderId') <> r.order_id`,
  "every executed action has its return row": `
    SELECT a.id FROM pending_actions a
    WHERE a.status = 'executed' AND NOT EXISTS (
      SELECT 1 FROM return_requests r WHERE r.operation_id = a.id OR r.action_id = a.id)`,
  "every action was proposed exactly once in the audit": `
    SELECT a.id, (SELECT count(*) FROM audit_events e
                  WHERE e.action_id = a.id AND e.status = 'confirmation_required') n
    FROM pending_actions a WHERE n <> 1`,
  // The relay's attempts at an action's effects (the confirmation mail, a refund) are events of
  // the action too, under tool "effect:<kind>"; they are not its decision.
  "every decided action has exactly one matching decision event": `
    SELECT a.id, a.status, count(e.id) n FROM pending_actions a
    LEFT JOIN audit_events e ON e.action_id = a.id AND e.tool NOT LIKE 'effect:%'
      AND e.status = CASE a.status
      WHEN 'executed' THEN 'success' WHEN 'failed' THEN 'technical_error'
      WHEN 'cancelled' THEN 'cancelled' WHEN 'expired' THEN 'expired'
      WHEN 'superseded' THEN 'superseded' WHEN 'stale' THEN 'stale' END
    WHERE a.status <> 'pending' GROUP BY a.id HAVING n <> 1`,
  "no decision event for an action still pending, and no success for an unexecuted one": `
    SELECT e.id, e.status, a.status action_status FROM audit_events e
    JOIN pending_actions a ON a.id = e.action_id
    WHERE (a.status = 'pending' AND e.status <> 'confirmation_required')
       OR (e.status = 'success' AND a.status <> 'executed')`,
};

/** Every invariant that does not hold, with the rows that break it. */
export function brokenInvariants(db: Database.Database): Record<string, Row[]> {
  const broken: Record<string, Row[]> = {};
  for (const [name, sql] of Object.entries(INVARIANTS)) {
    const rows = db.prepare(sql).all() as Row[];
    if (rows.length > 0) broken[name] = rows;
  }
  return broken;
}

export type ActionState = { status: string; returnId: string | null };

export function actionStates(db: Database.Database, ids: string[]): Map<string, ActionState> {
  const get = db.prepare(
    `SELECT a.status, r.id return_id FROM pending_actions a
     LEFT JOIN return_requests r ON r.operation_id = a.id WHERE a.id = ?`,
  );
  const out = new Map<string, ActionState>();
  for (const id of ids) {
    const row = get.get(id) as { status: string; return_id: string | null } | undefined;
    if (row) out.set(id, { status: row.status, returnId: row.return_id });
  }
  return out;
}
