/**
 * Read-only look at the server's database file: what the tests compare before and after a
 * request to prove that nothing was created or changed. A separate read-only connection can
 * never hold the write lock, so it cannot disturb the server it observes.
 */
import Database from "better-sqlite3";

export type Snapshot = Record<string, number | string>;

const QUERIES: Record<string, string> = {
  users: "SELECT count(*) FROM user",
  sessions: "SELECT count(*) FROM session",
  accounts: "SELECT count(*) FROM account",
  verifications: "SELECT count(*) FROM verification",
  orders: "SELECT count(*) || ':' || coalesce(sum(version), 0) FROM orders",
  returns: "SELECT count(*) FROM return_requests",
  cancellations: "SELECT count(*) FROM order_cancellations",
  chats: "SELECT count(*) FROM chats",
  messages: "SELECT count(*) FROM messages",
  actions:
    "SELECT coalesce(group_concat(status || '=' || n, ','), '') FROM (SELECT status, count(*) n FROM pending_actions GROUP BY status ORDER BY status)",
  audit: "SELECT count(*) FROM audit_events",
};

export function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

export function snapshot(db: Database.Database): Snapshot {
  const out: Snapshot = {};
  for (const [name, sql] of Object.entries(QUERIES)) {
    out[name] = db.prepare(sql).pluck().get() as number | string;
  }
  return out;
}
