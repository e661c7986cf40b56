/**
 * npm run users -- add --email sam@shop.example --role staff|customer [--name "Sam Lee"]
 *   [--store-customer cus_…]
 *
 * Creates an account (sign-up is disabled; lib/auth/accounts.ts). The password is asked for twice
 * without echo on a terminal, or read from the first line of standard input when that is not a
 * terminal (`printf '%s\n' "$PASSWORD" | npm run users -- add ...`); never from the command line,
 * where other users of the machine could read it. Uses the configured database (DATABASE_PATH or
 * DATABASE_URL), migrating it first if needed; it seeds nothing.
 */
import readline from "node:readline";
import { parseArgs } from "node:util";
import { hiddenPrompt } from "@/cli/hidden-prompt";
import { closeDb } from "@/db";
import { initDatabase } from "@/db/init";
import { setStoreCustomerId } from "@/db/queries/users";
import { AccountError, createAccount } from "@/lib/auth/accounts";

const USAGE =
  "Usage: npm run users -- add --email <email> --role staff|customer [--name <name>]\n" +
  "       [--store-customer <the store's customer id>] (a customer only: links the account to it)\n" +
  "The password is read from a hidden prompt, or from the first line of standard input.";

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

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
  const { positionals, values } = parsed;
  if (positionals[0] !== "add" || positionals.length !== 1) fail(USAGE, 2);
  const { email, role } = values;
  if (!email || (role !== "staff" && role !== "customer")) fail(USAGE, 2);
  const storeCustomer = values["store-customer"]?.trim();
  // Only a customer has orders at the store (docs/stores.md).
  if (values["store-customer"] !== undefined && (!storeCustomer || role !== "customer"))
    fail(USAGE, 2);
  const password = await readPassword();
  // Migrate if this is a new database, but never seed the demo store into it.
  process.env.SEED_DEMO = "0";
  await initDatabase();
  try {
    const created = await createAccount({
      email,
      role,
      name: values.name ?? email.split("@")[0]!,
      password,
    });
    if (storeCustomer)
      await setStoreCustomerId({ email: created.email, storeCustomerId: storeCustomer });
    const linked = storeCustomer ? `, linked to store customer ${storeCustomer}` : "";
    process.stdout.write(
      `Created ${created.role} account ${created.email} (id ${created.id})${linked}.\n`,
    );
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
    },
  });
}

await main();
