import { z } from "zod";

/**
 * In the browser, zod 4 probes whether it may compile parsers with `new Function("")` as each
 * z.object is constructed. The pages' CSP has no 'unsafe-eval', so the probe fails (zod falls back
 * to its interpreter) but is reported as a CSP violation, which Lighthouse counts against /chat's
 * best practices. jitless skips the probe. It must run before the first schema is built, so the
 * chat's client modules import this module first. The server keeps the JIT.
 */
if (typeof window !== "undefined") z.config({ jitless: true });
