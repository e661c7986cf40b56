/**
 * A tool call's arguments cut down to what the tool's schema declares, for the records that must
 * hold no customer text: the anonymised turn profiles and the candidate's comparisons. A model
 * does what the customer asks, including writing an address into an argument's NAME
 * (`{"orderId": "8041", "Anna Petrova, Torstrasse 1…": "x"}`); the tool refuses such a call, but
 * a record of its shape or of the fields that differ would still name the key. Here a key the
 * schema does not declare is dropped and only counted, at any depth, and an object where the
 * schema declares a plain value keeps none of its keys. Pure: the schema is the JSON Schema the
 * model is shown, which is converted from the tool's own zod schema (lib/tools/registry.ts).
 */

export type DeclaredArguments = {
  /** Only the declared keys (values as the model sent them). */
  args: unknown;
  /** How many keys were dropped, at any depth; never which. */
  unknownKeys: number;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function propertiesOf(schema: unknown): Record<string, unknown> {
  return isObject(schema) && isObject(schema.properties) ? schema.properties : {};
}

/** Every key in `value`, however deep: what is dropped when nothing of it is declared. */
function countKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + countKeys(v), 0);
  if (!isObject(value)) return 0;
  return Object.values(value).reduce<number>((n, v) => n + 1 + countKeys(v), 0);
}

export function keepDeclared(schema: unknown, value: unknown): DeclaredArguments {
  if (Array.isArray(value)) {
    const items = isObject(schema) ? schema.items : undefined;
    let unknownKeys = 0;
    const args = value.map((v) => {
      const kept = keepDeclared(items, v);
      unknownKeys += kept.unknownKeys;
      return kept.args;
    });
    return { args, unknownKeys };
  }
  if (!isObject(value)) return { args: value, unknownKeys: 0 };
  const declared = propertiesOf(schema);
  // No prototype: a declared key can never be "__proto__", but the object is built key by key.
  const args: Record<string, unknown> = Object.create(null);
  let unknownKeys = 0;
  for (const [key, v] of Object.entries(value)) {
    if (Object.hasOwn(declared, key)) {
      const kept = keepDeclared(declared[key], v);
      args[key] = kept.args;
      unknownKeys += kept.unknownKeys;
    } else unknownKeys += 1 + countKeys(v);
  }
  return { args: { ...args }, unknownKeys };
}
