/**
 * npm run users -- add --email sam@shop.example --role staff|customer [--name "Sam Lee"]
 *   [--store-customer cus_…]
 * npm run users -- link --email anna@shop.example --store-customer cus_… [--replace]
 * npm run users -- unlink --email anna@shop.example
 *
 * add creates an account (sign-up is disabled; lib/auth/accounts.ts). The password is asked for
 * twice without echo on a terminal, or read from the first line of standard input when that is not
 * a terminal (`printf '%s\n' "$PASSWORD" | npm run users -- add ...`); never from the command line,
 * where other users of the machine could read it.
 *
 * link and unlink set or clear an existing customer account's store customer (docs/stores.md):
 * the customer whose orders the connected store (STORE_BACKEND) reads and writes for it. Linking
 * an account that is linked elsewhere takes --replace, because its orders then change.
 *
 * Uses the configured database (DATABASE_PATH or DATABASE_URL), migrating it first if needed; it
 * seeds nothing.
 */
import readline from "node:readline";
import { parseArgs } from "node:util";
import { hiddenPrompt } from "@/cli/hidden-prompt";
import { closeDb } from "@/db";
import { initDatabase } from "@/db/init";
import { normalizeEmail } from "@/lib/auth/account-throttle";
import {
  AccountError,
  createAccount,
  linkStoreCustomer,
  unlinkStoreCustomer,
} from "@/lib/auth/accounts";

const USAGE =
  "Usage: npm run users -- add --email <email> --role staff|customer [--name <name>]\n" +
  "       [--store-customer <the store's customer id>] (a customer only: links the account to it)\n" +
  "       npm run users -- link --email <email> --store-customer <id> [--replace]\n" +
  "       npm run users -- unlink --email <email>\n" +
  "add reads the password from a hidden prompt, or from the first line of standard input.";

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const first = await hiddenPrompt("Password: ");
    const again = await hiddenPrompt("Password again: ");
    if (first !== again) fail("The passwords do not match.");
    return first;
  }
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return "";
}

type Parsed = ReturnType<typeof parse>;

/** Which command, with the options it allows; anything else is a usage error (exit 2). */
function command(parsed: Parsed): "add" | "link" | "unlink" {
  const { positionals, values } = parsed;
  const name = positionals[0];
  if (positionals.length !== 1 || !values.email) fail(USAGE, 2);
  const given = Object.keys(values).filter((k) => values[k as keyof typeof values] !== undefined);
  const allowed: Record<string, string[]> = {
    add: ["email", "role", "name", "store-customer"],
    link: ["email", "store-customer", "replace"],
    unlink: ["email"],
  };
  if (name === undefined || !(name in allowed)) fail(USAGE, 2);
  const extra = given.filter((k) => !allowed[name]!.includes(k));
  if (extra.length > 0) fail(`${name} does not take --${extra.join(", --")}.\n${USAGE}`, 2);
  if (name === "add" && values.role !== "staff" && values.role !== "customer") fail(USAGE, 2);
  // Only a customer has orders at the store (docs/stores.md).
  if (name === "add" && values["store-customer"] !== undefined && values.role !== "customer")
    fail(`Only a customer account can be linked to a store customer.\n${USAGE}`, 2);
  if (name === "link" && values["store-customer"] === undefined) fail(USAGE, 2);
  return name as "add" | "link" | "unlink";
}

async function run(name: "add" | "link" | "unlink", values: Parsed["values"]): Promise<string> {
  const email = values.email!;
  if (name === "link") {
    const storeCustomerId = values["store-customer"]!;
    const r = await linkStoreCustomer({ email, storeCustomerId, replace: values.replace });
    const id = storeCustomerId.trim();
    if (r.previous === id) return `${r.email} was already linked to store customer ${id}.`;
    return r.previous
      ? `Linked ${r.email} to store customer ${id} (was ${r.previous}).`
      : `Linked ${r.email} to store customer ${id}.`;
  }
  if (name === "unlink") {
    const previous = await unlinkStoreCustomer({ email });
    const shown = normalizeEmail(email);
    return previous
      ? `Unlinked ${shown} from store customer ${previous}.`
      : `${shown} was not linked to a store customer.`;
  }
  const role = values.role as "staff" | "customer";
  const password = await readPassword();
  const created = await createAccount({
    email,
    role,
    name: values.name ?? email.split("@")[0]!,
    password,
    storeCustomerId: values["store-customer"],
  });
  const linked = created.storeCustomerId
    ? `, linked to store customer ${created.storeCustomerId}`
    : "";
  return `Created ${created.role} account ${created.email} (id ${created.id})${linked}.`;
}

async function main(): Promise<void> {
  let parsed: Parsed;
  try {
    parsed = parse();
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
  const name = command(parsed);
  // Migrate if this is a new database, but never seed the demo store into it.
  process.env.SEED_DEMO = "0";
  await initDatabase();
  try {
    process.stdout.write(`${await run(name, parsed.values)}\n`);
  } catch (err) {
    if (err instanceof AccountError) fail(err.message);
    throw err;
  } finally {
    await closeDb();
  }
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      "store-customer": { type: "string" },
      replace: { type: "boolean" },
    },
  });
}

await main();
