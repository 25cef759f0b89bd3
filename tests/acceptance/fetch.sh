#!/usr/bin/env bash
# Fetches real third-party CUDA binaries for the acceptance run (not in the
# repository, not needed by CI): PyTorch's libtorch_cuda.so as Debian builds
# it, llama.cpp CUDA builds for Linux and Windows from npm, cuBLAS 11.8 and
# 12.4, a few small CUDA programs, and Debian's rocSPARSE 5.3 (1.3 GB of
# AMD code objects).  Uses a private apt configuration (the
# system's is untouched) and `npm pack`.
# usage: tests/acceptance/fetch.sh DEST [DEBIAN_PACKAGE...]
#   with packages named, fetches only those (no npm).
set -euo pipefail
dest=${1:?usage: fetch.sh DEST [DEBIAN_PACKAGE...]}
shift
mkdir -p "$dest"/apt/lists/partial "$dest"/apt/cache/archives/partial "$dest"/debs "$dest"/npm "$dest"/x
cat > "$dest/apt/sources.list" <<'SRC'
deb http://deb.debian.org/debian bookworm main contrib non-free
deb http://deb.debian.org/debian trixie main contrib non-free
SRC
opts=(-o "Dir::Etc::sourcelist=$dest/apt/sources.list" -o Dir::Etc::sourceparts=-
      -o "Dir::State::Lists=$dest/apt/lists" -o "Dir::Cache=$dest/apt/cache"
      -o APT::Default-Release=bookworm)
debs=(libtorch-cuda-2.6 libcublas11 libcublas12 python3-pycudwt python3-pyhst2-cuda bart-cuda
      librocsparse0)
npms=(@node-llama-cpp/linux-x64-cuda@3.22.1 @node-llama-cpp/win-x64-cuda@3.21.1)
if [ $# -gt 0 ]; then
    debs=("$@")
    npms=()
fi

apt-get "${opts[@]}" -qq update
(cd "$dest/debs" && for d in "${debs[@]}"; do
    ls "${d}"_*.deb >/dev/null 2>&1 || apt-get "${opts[@]}" -qq download "$d"
done)
for f in "$dest"/debs/*.deb; do
    name=$(basename "$f"); name=${name%%_*}
    [ -d "$dest/x/$name" ] || dpkg-deb -x "$f" "$dest/x/$name"
done
(cd "$dest/npm" && for p in ${npms[@]+"${npms[@]}"}; do
    base=$(echo "${p#@}" | tr '/@' '--')
    if ! ls "$dest/npm/$base".tgz >/dev/null 2>&1; then
        tgz=$(npm pack --silent "$p")
        [ "$tgz" = "$base.tgz" ] || mv "$tgz" "$base.tgz"
    fi
    [ -d "$dest/x/$base" ] || { mkdir -p "$dest/x/$base"; tar -xzf "$base.tgz" -C "$dest/x/$base"; }
done)
du -sh "$dest"/debs "$dest"/npm
