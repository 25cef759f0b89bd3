#!/usr/bin/env bash
# Benchmark of `wheelarch scan` on a large wheel, against `unzip -p` of its
# largest member (the cost floor is inflating it), measured alternately in
# one run; also peak RSS.  Prints ratios; targets: time ratio <= 0.6,
# peak RSS <= 64 MB.
#
# usage: bench/scan.sh BUILD_DIR [ROUNDS]
#   BENCH_SOURCE=debian (default; fetches Debian's PyTorch 2.6 CUDA build,
#   about 480 MB, once) or BENCH_SOURCE=nvcc (builds from generated kernels).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: bench/scan.sh BUILD_DIR [ROUNDS]}" && pwd)
rounds=${2:-3}
work=$here/work
source=${BENCH_SOURCE:-debian}
mkdir -p "$work"

if [ "$source" = debian ]; then
    if [ ! -d "$work/real/x/libtorch-cuda-2.6" ]; then
        "$here/../tests/acceptance/fetch.sh" "$work/real" libtorch-cuda-2.6 >/dev/null
    fi
    out=$(python3 "$here/make-big-wheel.py" "$work" --source debian \
        --debian-dir "$work/real/x/libtorch-cuda-2.6")
else
    out=$(python3 "$here/make-big-wheel.py" "$work" --source nvcc)
fi
wheel=$(echo "$out" | sed -n 1p)
member=$(echo "$out" | sed -n 2p)
wheel_mb=$(( $(stat -c %s "$wheel") >> 20 ))
member_mb=$(( $(unzip -Zl "$wheel" "$member" | awk 'NR==1{print $4}') >> 20 ))
echo "wheel: $(basename "$wheel") ($wheel_mb MB); largest member $member ($member_mb MB inflated)"

# Warm the page cache so both tools read from memory.
cat "$wheel" > /dev/null
t_unzip=()
t_scan=()
rss=()
now() { date +%s.%N; }
for r in $(seq "$rounds"); do
    s=$(now); unzip -p "$wheel" "$member" > /dev/null; e=$(now)
    t_unzip+=("$(echo "$e - $s" | bc)")
    s=$(now)
    /usr/bin/time -f "%M" -o "$work/rss.txt" "$build/wheelarch" scan "$wheel" > "$work/scan.txt"
    e=$(now)
    t_scan+=("$(echo "$e - $s" | bc)")
    rss+=("$(cat "$work/rss.txt")")
    echo "round $r: unzip -p ${t_unzip[-1]} s, wheelarch scan ${t_scan[-1]} s, peak RSS ${rss[-1]} KB"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mu=$(median "${t_unzip[@]}")
ms=$(median "${t_scan[@]}")
mr=$(median "${rss[@]}")
maxr=$(printf '%s\n' "${rss[@]}" | sort -g | tail -1)
ratio=$(echo "scale=3; $ms / $mu" | bc)
echo "scan output:"
sed 's/^/  /' "$work/scan.txt"
echo "median: unzip -p $mu s, wheelarch scan $ms s"
echo "time ratio (scan / unzip -p): $ratio (target <= 0.6)"
echo "peak RSS: median $((mr / 1024)) MB, max $((maxr / 1024)) MB (target <= 64 MB)"
