/**
 * The extra e2e servers started by playwright.config.ts (same production build, own databases).
 * The config picks their ports once and leaves them in the environment the workers inherit.
 */
function url(variable: string): string {
  const port = process.env[variable];
  if (!port) throw new Error(`${variable} is not set: run through playwright.config.ts`);
  return `http://127.0.0.1:${port}`;
}

/** PENDING_ACTION_TTL_SECONDS=3 and CHAT_RATE_LIMIT_PER_MINUTE=3. */
export const strictServerURL = url("E2E_PORT_STRICT");

/** MODEL_PROVIDER=openai with a base URL nobody listens on: every turn fails at the provider. */
export const noModelServerURL = url("E2E_PORT_NO_MODEL");
