#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages wheelarch's build, tests and benchmarks
# use: only those missing, non-interactively, with sudo when not root.
# usage: scripts/install-deps.sh
set -euo pipefail

packages=(
    # build
    build-essential cmake pkg-config git
    libcurl4-openssl-dev libzip-dev libjansson-dev libcmark-dev
    libisal-dev libzstd-dev liblz4-dev libssl-dev zlib1g-dev
    # tests: clang for libFuzzer and the sanitizers, formatting, Python
    clang libclang-rt-14-dev clang-format python3
    # benchmarks: unzip as the reference, GNU time for peak memory
    zip unzip time bc
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
