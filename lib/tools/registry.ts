/**
 * The allowlist: the only tools the model can call. Adding a tool = one folder under lib/tools/
 * + one line here + one in manifests.ts (its pure data, which the catalogues load without the
 * database); the module refuses to load if the two lists differ.
 */
import { z } from "zod";
import { cancelOrder } from "./cancel-order";
import { changeDeliveryAddress } from "./change-delivery-address";
import { createReturnRequest } from "./create-return-request";
import { exchangeItems } from "./exchange-items";
import { getOrderStatus } from "./get-order-status";
import { getReturnPolicy } from "./get-return-policy";
import { TOOL_METAS } from "./manifests";
import type { AnyTool } from "./types";

export const TOOLS = [
  getOrderStatus,
  getReturnPolicy,
  createReturnRequest,
  cancelOrder,
  changeDeliveryAddress,
  exchangeItems,
] as const;

if (TOOLS.map((t) => t.name).join() !== TOOL_METAS.map((m) => m.name).join()) {
  throw new Error("lib/tools/registry.ts and lib/tools/manifests.ts must list the same tools");
}

export type ToolName = (typeof TOOLS)[number]["name"];
export type WriteToolName = Extract<(typeof TOOLS)[number], { access: "write" }>["name"];

export type ToolRegistry = ReadonlyMap<string, AnyTool>;

export function createRegistry(tools: readonly AnyTool[]): ToolRegistry {
  const map = new Map<string, AnyTool>();
  for (const t of tools) {
    if (map.has(t.name)) throw new Error(`duplicate tool ${t.name}`);
    map.set(t.name, t);
  }
  return map;
}

export const toolRegistry: ToolRegistry = createRegistry(TOOLS);

/** A Map lookup, so names like "constructor" or "__proto__" from a model never resolve. */
export function getTool(name: string, registry: ToolRegistry = toolRegistry): AnyTool | undefined {
  return registry.get(name);
}

export type ToolDescriptor = {
  name: string;
  description: string;
  access: "read" | "write";
  /** Offered to a visitor who is not signed in (a read tool that reads no customer's data). */
  visitors: boolean;
  /** JSON Schema (draft 2020-12) of the accepted input, for advertising to the model. */
  inputJsonSchema: Record<string, unknown>;
};

/**
 * What the chat turn advertises to the model. The turn should NOT let the AI SDK validate
 * input itself: pass these schemas without a validator (jsonSchema(...)) and send every call
 * through executeToolCall, which validates, audits and rejects.
 */
export function toolDescriptors(registry: ToolRegistry = toolRegistry): ToolDescriptor[] {
  // A registry never changes, and converting zod to JSON Schema on every chat turn was a
  // visible share of the turn (docs/benchmarks.md): build once per registry.
  let list = descriptorCache.get(registry);
  if (!list) {
    list = [...registry.values()].map((t) => ({
      name: t.name,
      description: t.description,
      access: t.access,
      visitors: t.access === "read" && t.visitors === true,
      inputJsonSchema: z.toJSONSchema(t.args, { io: "input" }) as Record<string, unknown>,
    }));
    // Stryker disable next-line CallExpression: without the entry the next call builds an equal list again
    descriptorCache.set(registry, list);
  }
  // Copies: a caller that edits a schema must not change what the next turn advertises.
  return list.map((d) => ({ ...d, inputJsonSchema: structuredClone(d.inputJsonSchema) }));
}

const descriptorCache = new WeakMap<ToolRegistry, ToolDescriptor[]>();
