// npm run lint, second part: Biome again on a copy of the checkout inside a folder named `app`,
// Docker's usual WORKDIR. Some of Biome's Next.js rules read the file's absolute path and take any
// file under an `…/app/` folder for an App Router file, so a suppression that is needed in one
// folder is "unused" (a warning, an error with --error-on-warnings) in another. The project must
// lint the same wherever it is cloned; this is the check that would have caught it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-lint-"));
const copy = path.join(tmp, "app");
try {
  // The files Biome would check: tracked and untracked-but-not-ignored, as they are on disk now.
  const listed = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: root, encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.toString("utf8").split("\0").filter(Boolean)) {
    const from = path.join(root, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(from, path.join(copy, file));
  }
  const biome = path.join(root, "node_modules", ".bin", "biome");
  // Only the copied files are there, so git's ignore list has nothing left to leave out.
  const r = spawnSync(biome, ["check", "--error-on-warnings", "--vcs-enabled=false", "."], {
    cwd: copy,
    stdio: "inherit",
  });
  if (r.status !== 0) {
    console.error(`[lint] Biome fails on a checkout in a folder named "app" (${copy}).`);
    process.exitCode = r.status ?? 1;
  }
} finally {
  if (!process.exitCode) fs.rmSync(tmp, { recursive: true, force: true });
}
