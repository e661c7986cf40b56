// Preloaded by relay-worker.ts's process (node --import): our modules import "server-only", which
// throws outside React Server Components, and the react-server condition that silences it also
// swaps react-dom/server for a stub that throws (a customer mail is rendered with it). So the
// worker runs under Node's default conditions with "server-only" resolved to vitest's empty stub.
import { registerHooks } from "node:module";

const stub = new URL("../stubs/server-only.ts", import.meta.url).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === "server-only") return { url: stub, shortCircuit: true };
    return next(specifier, context);
  },
});
