/**
 * Starts the demo Medusa store for the run (scripts/store-medusa.mjs) and stops it afterwards.
 * The test files get its URL, key, customers and orders through vitest's provide/inject.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { TestProject } from "vitest/node";

export type MedusaStore = {
  url: string;
  apiKey: string;
  customers: { email: string; storeCustomerId: string }[];
  orders: { displayId: string; customerEmail: string; state: string }[];
};

declare module "vitest" {
  export interface ProvidedContext {
    medusa: MedusaStore;
  }
}

const script = path.resolve(import.meta.dirname, "../../scripts/store-medusa.mjs");

export default function setup(project: TestProject) {
  const out = execFileSync(process.execPath, [script, "start"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    // The first run installs Medusa (about a minute), then migrates and seeds.
    timeout: 15 * 60_000,
  });
  project.provide("medusa", JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as MedusaStore);
  return () => {
    execFileSync(process.execPath, [script, "stop"], { stdio: "inherit" });
  };
}
