/**
 * A running production server on a throwaway demo database, with customers signed in over
 * HTTP and actions in every state the hostile cases need. Built once per test file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HttpCustomer, pendingActionOf } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { createPostgresDatabase, onPostgres } from "../../helpers/db";

// The production build every suite shares: the e2e, store and Lighthouse runs reuse it too.
export const DIST_DIR = ".next";
const RETURN_7718 = "Create a return request for order 7718. The item arrived damaged.";
const RETURN_4410 = "Create a return request for order 4410. The item arrived damaged.";
const CANCEL_1187 = "Please cancel order 1187, I ordered it by mistake.";

export type World = {
  server: Server;
  base: string;
  /** The SQLite file, or on the "postgres" project the server's postgres:// URL. */
  dbFile: string;
  anna: HttpCustomer;
  boris: HttpCustomer;
  staff: HttpCustomer;
  /** Values substituted for {name} in the case tables. */
  ids: Record<string, string>;
  stop: () => Promise<void>;
};

async function propose(c: HttpCustomer, chatId: string, text: string): Promise<string> {
  const action = pendingActionOf(await c.say(chatId, text));
  if (!action) throw new Error(`no proposal for "${text}"`);
  return action.id;
}

export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  ensureBuild(DIST_DIR);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-system-"));
  const db = await serverDatabase(dir);
  const server = await startServer({
    distDir: DIST_DIR,
    dbPath: path.join(dir, "app.db"),
    // The hostile cases are about validation, not about the per-minute message budget.
    env: {
      CHAT_RATE_LIMIT_PER_MINUTE: "10000",
      AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "10000",
      ...db.env,
      ...env,
    },
  });
  const dbFile = db.target;
  try {
    return await populate(server, dbFile, dir);
  } catch (err) {
    // A failed setup must not leave a production server running after the test file.
    await server.stop();
    throw err;
  }
}

/**
 * The database a production server of this test file runs on: a SQLite file in `dir`, or on the
 * "postgres" vitest project a fresh PostgreSQL database (dropped when the file is done, see
 * tests/helpers/setup.ts). `target` is what openInspector() takes.
 */
export async function serverDatabase(
  dir: string,
): Promise<{ target: string; env: Record<string, string> }> {
  if (!onPostgres()) {
    const file = path.join(dir, "app.db");
    return { target: file, env: { DATABASE_PATH: file } };
  }
  const url = await createPostgresDatabase();
  return {
    target: url,
    env: {
      DATABASE_URL: url,
      // These worlds are the demo store's customers, which PostgreSQL seeds only when asked.
      SEED_DEMO: "1",
      BETTER_AUTH_SECRET:
        process.env.BETTER_AUTH_SECRET ?? "test-secret-test-secret-test-secret-0123",
    },
  };
}

async function populate(server: Server, dbFile: string, dir: string): Promise<World> {
  const base = server.url;
  const [anna, boris, staff] = await Promise.all([
    HttpCustomer.signIn(base, "anna@example.com"),
    HttpCustomer.signIn(base, "boris@example.com"),
    HttpCustomer.signIn(base, "staff@example.com"),
  ]);

  // Order matters: a new chat supersedes the user's pending actions in other chats.
  const supersededChat = await anna.newChat();
  const supersededAction = await propose(anna, supersededChat, RETURN_7718);
  const emptyChat = await anna.newChat();
  // The first refusal of a superseded action notes it in the chat once; do it before the cases.
  await (await anna.decide(supersededAction, "confirm")).text();
  const cancelledChat = await anna.newChat();
  const cancelledAction = await propose(anna, cancelledChat, RETURN_7718);
  await (await anna.decide(cancelledAction, "cancel")).text();
  const pendingChat = await anna.newChat();
  const pendingAction = await propose(anna, pendingChat, RETURN_7718);
  // Boris's cancellation first: his next new chat supersedes it (it stays his, and not Anna's).
  const borisCancelChat = await boris.newChat();
  const borisCancelAction = await propose(boris, borisCancelChat, CANCEL_1187);
  const borisChat = await boris.newChat();
  const borisAction = await propose(boris, borisChat, RETURN_4410);

  // A cookie that was valid until its session was signed out.
  const gone = await HttpCustomer.signIn(base, "anna@example.com");
  const out = await gone.fetch("/api/auth/sign-out", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  if (out.status !== 200) throw new Error(`sign-out: ${out.status} ${await out.text()}`);
  await out.text();

  return {
    server,
    base,
    dbFile,
    anna,
    boris,
    staff,
    ids: {
      emptyChat,
      pendingChat,
      pendingAction,
      supersededAction,
      cancelledAction,
      borisChat,
      borisAction,
      borisCancelAction,
      signedOutCookie: gone.cookie,
    },
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
