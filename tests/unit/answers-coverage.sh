#!/usr/bin/env bash
# Does test_answers' sample (--quick, the run under the sanitizers) reach
# every line and branch of the answer engine that the whole grid reaches?
# Builds test_answers with gcov into WORK (default /tmp/wheelarch-answers-cov),
# runs the grid and the sample, and prints the lines and branches of
# src/answer and src/rules that only the grid reaches; exit 1 when there
# are any.  Takes a few minutes (the grid at -O0).
#
# usage: tests/unit/answers-coverage.sh [WORK]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/tmp/wheelarch-answers-cov}
cmake -S "$root" -B "$work/build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="--coverage -O0" \
    -DCMAKE_EXE_LINKER_FLAGS=--coverage >/dev/null
cmake --build "$work/build" -j "$(nproc)" --target test_answers >/dev/null

# reached RUN_NAME [--quick]: the lines and branches taken, one per line
reached() {
    local name=$1 out=$work/$1
    shift
    find "$work/build" -name '*.gcda' -delete
    local start=$SECONDS
    "$work/build/tests/test_answers" "$root/data" "$@" | tail -1
    echo "$name: $((SECONDS - start)) s at -O0"
    rm -rf "$out" && mkdir -p "$out"
    local g
    for g in $(find "$work/build" -name '*.gcda' | grep -E '/(answer|rules)/'); do
        (cd "$out" && gcov -b -c -o "$(dirname "$g")" "$g" >/dev/null 2>&1) || true
    done
    # "count: line:" lines and the "branch N taken M" lines under them
    awk '
        FNR == 1 { file = FILENAME; sub(/.*\//, "", file); sub(/\.gcov$/, "", file) }
        /^branch/ { b++; if ($0 !~ /taken 0/ && $0 !~ /never executed/) print file ":" line ":b" b; next }
        match($0, /^ *[^:]+: *[0-9]+:/) {
            split($0, f, ":"); gsub(/ /, "", f[1]); gsub(/ /, "", f[2])
            line = f[2]; b = 0
            if (f[1] != "-" && f[1] != "#####" && f[1] != "=====" && line > 0) print file ":" line
        }' "$out"/*.gcov | sort -u > "$out/reached.txt"
    echo "$name: $(grep -vc ':b' "$out/reached.txt") lines, $(grep -c ':b' "$out/reached.txt") branches"
}
reached grid
reached sample --quick
missing=$(comm -23 "$work/grid/reached.txt" "$work/sample/reached.txt")
if [ -n "$missing" ]; then
    echo "reached by the grid only (src file:line[:bN = its Nth branch]):"
    echo "$missing"
    exit 1
fi
echo "the sample reaches every line and branch the grid does"
