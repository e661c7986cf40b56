// `npm run screenshots`: writes the README's screenshot pairs (the confirm card and /audit, in
// English and Russian) to docs/screenshots/ with tests/screenshots/docs.spec.ts, against the
// same production build and throwaway servers as the e2e suite (playwright.config.ts).
import { spawnSync } from "node:child_process";

const env = { ...process.env, DOCS_SCREENSHOTS: "1" };
const steps = [
  ["node", ["scripts/ensure-browser.mjs"]],
  ["npx", ["playwright", "test", "--project=screenshots", ...process.argv.slice(2)]],
];
for (const [command, args] of steps) {
  const r = spawnSync(command, args, { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
