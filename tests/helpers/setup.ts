// Quiet, deterministic defaults for every test process. Each test file then opens its own
// database with useTestDatabase().
process.env.NEXT_TELEMETRY_DISABLED = "1";
delete process.env.OPENAI_API_KEY;
delete process.env.MODEL_PROVIDER;
// Many sign-ins from one process share one rate-limit bucket; the limit has its own test.
process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE ??= "100000";
