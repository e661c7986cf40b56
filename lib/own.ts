/**
 * Lookups keyed by text from the model, the browser or the database. A plain object literal
 * inherits from Object.prototype, so `table["__proto__"]`, `table["constructor"]` or
 * `table["valueOf"]` return something truthy that was never in the table.
 * Every such lookup goes through here: only the table's own keys answer.
 */
export function own<V>(table: Readonly<Partial<Record<string, V>>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
