/**
 * The loopback OpenAI-protocol server (openai-server.ts) as the model of this test process, on a
 * fresh test database: the provider variables point at it until `stop()`, which closes the server
 * and takes the variables back out. Call in beforeAll, stop in afterAll.
 */
import { resetEnv } from "@/lib/env";
import { useTestDatabase } from "./db";
import { type OpenAIServer, startOpenAIServer } from "./openai-server";

export const LOOPBACK_MODEL = "loopback-1";

export async function useLoopbackModel(
  env: Record<string, string> = {},
): Promise<{ server: OpenAIServer; stop: () => Promise<void> }> {
  const server = await startOpenAIServer();
  const vars = {
    MODEL_PROVIDER: "openai",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_MODEL: LOOPBACK_MODEL,
    ...env,
  };
  await useTestDatabase({ env: vars });
  return {
    server,
    stop: async () => {
      await server.close();
      for (const k of Object.keys(vars)) delete process.env[k];
      resetEnv();
    },
  };
}
