/**
 * What a hostile or broken model may do, played by the loopback OpenAI server
 * (tests/helpers/openai-server.ts). Used by tests/integration/prototype-keys.test.ts (audit,
 * API) and tests/system/hostile-model.test.ts (the production server and the chat page).
 */

/**
 * Tool names that are members of every plain JavaScript object. A lookup on a plain object
 * finds them (Object.prototype), so each must be rejected and audited as an unknown tool like
 * any other name outside the allowlist.
 */
export const PROTOTYPE_TOOL_NAMES = [
  "__proto__",
  "constructor",
  "valueOf",
  "toString",
  "hasOwnProperty",
] as const;
