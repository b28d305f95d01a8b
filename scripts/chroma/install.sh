#!/usr/bin/env bash
# install.sh: installs the Chroma server (npm package chromadb 3.5.0, native bindings pinned to 1.0.5, which run
# on glibc 2.36 / Debian 12) into scripts/chroma/node_modules. Idempotent; needs node and npm. Prints nothing on
# stdout (start.sh callers capture the URL from it).
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -x "$dir/node_modules/.bin/chroma" ]; then
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "chroma/install.sh: npm is not on PATH (apt-get install nodejs npm)" >&2; exit 1; }
cd "$dir"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error >&2
else
  npm install --no-audit --no-fund --loglevel=error >&2
fi
"$dir/node_modules/.bin/chroma" --version >/dev/null 2>&1 || { echo "chroma/install.sh: the chroma binary does not run" >&2; exit 1; }
