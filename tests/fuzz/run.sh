#!/usr/bin/env bash
# Runs every libFuzzer target for a while and reports what it found: the
# short smoke run of `make test-fuzz` and the long runs of `make fuzz-long`
# and the scheduled workflow.
#
# usage: tests/fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET [CORPUS_DIR]]
#        tests/fuzz/run.sh --list | --list-json
#
# BUILD_DIR is configured with -DWHEELARCH_FUZZ=ON and its fuzz_* targets
# built (the target `fuzzers`).  The targets are the files
# tests/fuzz/fuzz_<name>.c: a new one needs no edit here.  Optional per
# target: fuzz_<name>.dict (a libFuzzer dictionary) and fuzz_<name>.options
# (more libFuzzer flags, lines starting with '#' ignored).
#
# Inputs: the committed seeds (tests/fuzz/seeds/<name>/) and the seeds
# make-seeds.py generates into BUILD_DIR/fuzz-seeds (structure-aware zips
# and index pages, the fixtures), read-only.  New inputs go to
# CORPUS_DIR/<name>/, which is kept between runs (and minimised with
# libFuzzer's -merge=1 after a clean run); without CORPUS_DIR, to
# BUILD_DIR/fuzz-corpus/<name>/, emptied first (the smoke run).
#
# Environment:
#   FUZZ_TARGETS    names to run (default: all), e.g. "zip index"
#   FUZZ_JOBS       targets run at the same time (default 1)
#   FUZZ_ARTIFACTS  where crash inputs go (default BUILD_DIR/fuzz-artifacts),
#                   in <name>/ below it
#   FUZZ_FLAGS      more libFuzzer flags, e.g. "-use_value_profile=1"
#   FUZZ_MERGE      0 to keep the corpus unminimised (default 1)
#
# Each crash, leak, timeout or out-of-memory input is reported with its
# path, and the script exits 1 when any target found one or could not run.
# At the end a table: target, seconds, executions, exec/s, coverage (edges),
# corpus size (files in the target's corpus directory), crashes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

all_targets() {
    local f t
    for f in "$here"/fuzz_*.c; do
        t=${f##*/fuzz_}
        echo "${t%.c}"
    done
}

case "${1:-}" in
--list)
    all_targets
    exit 0
    ;;
--list-json)
    all_targets | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))'
    exit 0
    ;;
"" | -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ -n "${1:-}" ] && exit 0
    exit 2
    ;;
esac

build=$(cd "$1" && pwd)
secs=${2:-20}
corpus=${3:-}
artifacts=${FUZZ_ARTIFACTS:-$build/fuzz-artifacts}
jobs=${FUZZ_JOBS:-1}
merge=${FUZZ_MERGE:-1}
read -r -a targets <<< "${FUZZ_TARGETS:-$(all_targets | tr '\n' ' ')}"
read -r -a extra <<< "${FUZZ_FLAGS:-}"
logs=$build/fuzz-logs
seeds=$build/fuzz-seeds
# The fuzz build's UBSan checks report and go on unless told to stop: stop,
# so undefined behaviour is a crash with an input like any other.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

persistent=0
if [ -n "$corpus" ]; then
    persistent=1
    mkdir -p "$corpus"
    corpus=$(cd "$corpus" && pwd)
else
    corpus=$build/fuzz-corpus
    rm -rf "$corpus"
fi
mkdir -p "$logs" "$artifacts"
artifacts=$(cd "$artifacts" && pwd)

# Generated seeds, at most 256 KiB each: libFuzzer's default -max_len is
# the largest seed's size, and bigger inputs mostly slow it down (the
# replay tests run the larger ones).
python3 "$here/make-seeds.py" "$seeds" --fixtures "$here/../fixtures" \
    --samples "$here/../fixtures/index-pages" --max-size 262144

# One target: fuzz, minimise the corpus, write a summary line to
# $logs/<name>.summary ("name secs execs execs_per_sec cov corpus crashes status").
fuzz_one() {
    local t=$1 exe=$build/tests/fuzz/fuzz_$1 log=$logs/$1.log
    local out=$corpus/$t art=$artifacts/$t stamp=$logs/$1.stamp
    local status=ok rc=0 start end
    mkdir -p "$out" "$art"
    rm -f "$logs/$t.summary" "$logs/$t.crashes"
    if [ ! -x "$exe" ]; then
        echo "fuzz_$t: $exe is missing (build the target \`fuzzers\`)" > "$log"
        echo "$t 0 0 0 0 0 0 missing" > "$logs/$t.summary"
        return 1
    fi
    local inputs=("$out")
    [ -d "$seeds/$t" ] && inputs+=("$seeds/$t")
    [ -d "$here/seeds/$t" ] && inputs+=("$here/seeds/$t")
    local flags=(-max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
        -artifact_prefix="$art/")
    [ -f "$here/fuzz_$t.dict" ] && flags+=(-dict="$here/fuzz_$t.dict")
    if [ -f "$here/fuzz_$t.options" ]; then
        local opts
        read -r -a opts <<< "$(grep -v '^#' "$here/fuzz_$t.options" | tr '\n' ' ')"
        flags+=(${opts[@]+"${opts[@]}"})
    fi
    touch "$stamp"
    start=$(date +%s)
    "$exe" "${flags[@]}" ${extra[@]+"${extra[@]}"} "${inputs[@]}" > "$log" 2>&1 || rc=$?
    end=$(date +%s)
    find "$art" -type f -newer "$stamp" ! -name 'slow-unit-*' | sort > "$logs/$t.crashes"
    local crashes
    crashes=$(wc -l < "$logs/$t.crashes")
    if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
        status=FAILED
    elif [ "$merge" = 1 ] && [ "$persistent" = 1 ]; then
        # Keep only inputs that add coverage, so the cached corpus stays small.
        rm -rf "$out.merge"
        mkdir -p "$out.merge"
        if "$exe" -merge=1 -rss_limit_mb=2048 -timeout=10 "$out.merge" "$out" > "$log.merge" 2>&1; then
            rm -rf "$out" && mv "$out.merge" "$out"
        else
            rm -rf "$out.merge"
        fi
    fi
    # Executions: libFuzzer's final stats, else its last status line (a
    # crash can cut the stats short).
    local execs eps cov files
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -1)
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    [ -n "$eps" ] || eps=$(( ${execs:-0} / ((end - start) > 0 ? (end - start) : 1) ))
    cov=$(sed -n 's/.* cov: \([0-9][0-9]*\) .*/\1/p' "$log" | tail -1)
    files=$(find "$out" -type f | wc -l)
    echo "$t $((end - start)) ${execs:-0} ${eps:-0} ${cov:-0} $files $crashes $status" > "$logs/$t.summary"
    [ "$status" = ok ]
}

echo "fuzz: ${targets[*]}: ${secs}s each, corpus $corpus, artifacts $artifacts"
running=0
for t in "${targets[@]}"; do
    if [ ! -f "$here/fuzz_$t.c" ]; then
        echo "fuzz: no target $t (tests/fuzz/fuzz_$t.c)" >&2
        exit 2
    fi
    echo "== fuzz_$t: ${secs}s"
    fuzz_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

status=0
for t in "${targets[@]}"; do
    [ -f "$logs/$t.summary" ] || echo "$t 0 0 0 0 0 0 error" > "$logs/$t.summary"
    read -r _ _ _ _ _ _ crashes state < "$logs/$t.summary"
    if [ "$state" != ok ]; then
        status=1
        echo
        echo "fuzz_$t FAILED (log: $logs/$t.log)"
        tail -40 "$logs/$t.log"
        if [ "$crashes" -gt 0 ]; then
            while read -r a; do
                echo "fuzz_$t: crash input: $a"
            done < "$logs/$t.crashes"
            echo "fuzz_$t: reproduce with $build/tests/fuzz/fuzz_$t FILE, or without libFuzzer"
            echo "  with replay_$t FILE; keep it as a regression test in tests/fuzz/seeds/$t/"
        fi
    fi
done
echo
printf '%-10s %8s %12s %10s %8s %8s %8s  %s\n' target seconds executions exec/s cov corpus crashes status
for t in "${targets[@]}"; do
    read -r -a row < "$logs/$t.summary"
    printf '%-10s %8s %12s %10s %8s %8s %8s  %s\n' "${row[@]}"
done
exit $status
