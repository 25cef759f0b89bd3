#!/usr/bin/env bash
# Time to answer on a phone: builds the site from the shipped data (no
# database needed) and runs bench/answer-time.mjs on it (Debian's chromium,
# CPU throttled 4x, 3G and Slow 3G).  usage: bench/answer.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: bench/answer.sh BUILD_DIR}
work=${BENCH_WORK:-$here/work}/answer
rm -rf "$work"
mkdir -p "$work/cache"
"$build/wheelarch" build -q --cache "$work/cache" --out "$work/site" 2>/dev/null || "$build/wheelarch" build -q --cache "$work/cache" --out "$work/site"
[ -d "$here/../tests/node_modules/playwright-core" ] || (cd "$here/../tests" && npm ci --silent)
node "$here/answer-time.mjs" "$work/site"
