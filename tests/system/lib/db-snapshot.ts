/**
 * Read-only look at the server's database: what the tests compare before and after a request to
 * prove that nothing was created or changed. On SQLite a separate read-only connection (it can
 * never hold the write lock, so it cannot disturb the server it observes); on PostgreSQL (the
 * "postgres" vitest project) a client of its own on the server's database.
 */
import Database from "better-sqlite3";
import pg from "pg";

export type Snapshot = Record<string, number | string>;

const ACTIONS_BY_STATUS = {
  sqlite:
    "SELECT coalesce(group_concat(status || '=' || n, ','), '') FROM (SELECT status, count(*) n FROM pending_actions GROUP BY status ORDER BY status)",
  postgres:
    "SELECT coalesce(string_agg(status || '=' || n, ',' ORDER BY status), '') FROM (SELECT status, count(*) n FROM pending_actions GROUP BY status) s",
};

const QUERIES: Record<string, string> = {
  users: 'SELECT count(*) FROM "user"',
  sessions: "SELECT count(*) FROM session",
  accounts: "SELECT count(*) FROM account",
  verifications: "SELECT count(*) FROM verification",
  orders: "SELECT count(*) || ':' || coalesce(sum(version), 0) FROM orders",
  returns: "SELECT count(*) FROM return_requests",
  cancellations: "SELECT count(*) FROM order_cancellations",
  chats: "SELECT count(*) FROM chats",
  messages: "SELECT count(*) FROM messages",
  audit: "SELECT count(*) FROM audit_events",
};

export function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

export function snapshot(db: Database.Database): Snapshot {
  const out: Snapshot = {};
  for (const [name, sql] of Object.entries({ ...QUERIES, actions: ACTIONS_BY_STATUS.sqlite })) {
    out[name] = db.prepare(sql).pluck().get() as number | string;
  }
  return out;
}

/** A server's database on either dialect: SQL with `?` placeholders, rows as objects. */
export type Inspector = {
  rows<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The first column of each row. */
  column<T = unknown>(sql: string, params?: unknown[]): Promise<T[]>;
  snapshot(): Promise<Snapshot>;
  close(): Promise<void>;
};

const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//.test(target);

/** `target` is a SQLite file or a postgres:// URL (what the server was given). */
export async function openInspector(target: string): Promise<Inspector> {
  let rows: Inspector["rows"];
  let close: () => Promise<void>;
  let actions: string;
  if (isPostgresUrl(target)) {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    rows = async <T>(sql: string, params: unknown[] = []) => {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return (await client.query(text, params)).rows as T[];
    };
    close = () => client.end();
    actions = ACTIONS_BY_STATUS.postgres;
  } else {
    const db = openReadOnly(target);
    rows = async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[];
    close = async () => {
      db.close();
    };
    actions = ACTIONS_BY_STATUS.sqlite;
  }
  const column: Inspector["column"] = async <T>(sql: string, params: unknown[] = []) =>
    (await rows<Record<string, unknown>>(sql, params)).map((r) => Object.values(r)[0] as T);
  return {
    rows,
    column,
    close,
    snapshot: async () => {
      const out: Snapshot = {};
      for (const [name, sql] of Object.entries({ ...QUERIES, actions })) {
        const value = (await column<number | string>(sql))[0] as number | string;
        // PostgreSQL's count(*) is a bigint, which node-postgres hands over as text.
        out[name] = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
      }
      return out;
    },
  };
}
