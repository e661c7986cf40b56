/**
 * The SQLite database holds orders, chats and password hashes: the file, its `-wal` and `-shm`
 * files and the folder made for them are readable by their owner only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "@/db";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-mode-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const mode = (f: string) => fs.statSync(f).mode & 0o777;

describe("the database file's permissions", () => {
  it("a new database: folder 0700, file, -wal and -shm 0600, whatever the umask allows", () => {
    // The usual umask (022) would give 0755 and 0644; what the process's umask is, is not ours
    // to set here (vitest may run this file in a worker thread, where it cannot be changed).
    const file = path.join(root, "fresh", "data", "app.db");
    const conn = openSqlite(file);
    // A write makes sure the WAL and its index exist.
    conn.client.exec(
      "CREATE TABLE IF NOT EXISTS mode_probe (x); INSERT INTO mode_probe VALUES (1)",
    );
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    expect(fs.existsSync(`${file}-shm`)).toBe(true);
    expect({
      folder: mode(path.dirname(file)),
      file: mode(file),
      wal: mode(`${file}-wal`),
      shm: mode(`${file}-shm`),
    }).toEqual({ folder: 0o700, file: 0o600, wal: 0o600, shm: 0o600 });
    conn.client.close();
  });

  it("a database an older version left world-readable is tightened on open", () => {
    const dir = path.join(root, "old");
    fs.mkdirSync(dir);
    const file = path.join(dir, "app.db");
    const first = openSqlite(file);
    first.client.exec(
      "CREATE TABLE IF NOT EXISTS mode_probe (x); INSERT INTO mode_probe VALUES (1)",
    );
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.chmodSync(f, 0o644);
    const second = openSqlite(file);
    expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    second.client.close();
    first.client.close();
  });
});
