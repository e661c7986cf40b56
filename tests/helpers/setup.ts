// Quiet, deterministic defaults for every test process. Each test file then opens its own
// database with useTestDatabase().
process.env.NEXT_TELEMETRY_DISABLED = "1";
delete process.env.OPENAI_API_KEY;
delete process.env.MODEL_PROVIDER;
