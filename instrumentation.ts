/**
 * Runs once when the server starts: migrate and (demo) seed before the first request, and
 * resolve anything a crash left half-done.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/startup");
  await startServer();
}
