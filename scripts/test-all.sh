#!/usr/bin/env bash
# Runs every test stage of `make test` and ends with one summary: each stage,
# its result and its counts.  Every stage runs even when an earlier one
# failed (so the summary is complete); the exit status is non-zero when any
# stage failed.  Each stage's full output is shown as it runs and kept in
# $BUILD/test-logs/<stage>.log.
#
# usage: scripts/test-all.sh   (make test; MAKE, BUILD, JOBS from the Makefile)
set -uo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
build=${BUILD:-build}
logs=$build/test-logs
mkdir -p "$logs"

names=() results=() details=() times=()
failed=0

# ctest's "100% tests passed, 0 tests failed out of 42", and the tests it
# lists as not run ("  21 - unit.tmpl-spec (Skipped)"), named: a skipped
# test is not a passed one.
ctest_counts() {
    local line
    line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -1)
    if [ -n "$line" ]; then
        local nfail total skipped nskip
        nfail=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
        total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
        skipped=$(sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+) \((Skipped|Disabled|Not Run)\)$/\1/p' "$1" |
            sort -u | paste -sd, - | sed 's/,/, /g')
        nskip=$(grep -cE '^[[:space:]]*[0-9]+ - [^ ]+ \((Skipped|Disabled|Not Run)\)$' "$1")
        if [ "$nskip" -gt 0 ]; then
            echo "$((total - nfail - nskip))/$total tests passed, $nskip skipped: $skipped"
        else
            echo "$((total - nfail))/$total tests passed"
        fi
    else
        echo "no test results (build failed?)"
    fi
}

# tests/fuzz/run.sh's table: one line per target ending in ok / FAILED
fuzz_counts() {
    local ok bad execs
    ok=$(awk '$NF == "ok" && NF == 8' "$1" | wc -l)
    bad=$(awk 'NF == 8 && $1 != "target" && $NF != "ok"' "$1" | wc -l)
    execs=$(awk 'NF == 8 && $NF == "ok" { s += $3 } END { print s + 0 }' "$1")
    echo "$ok/$((ok + bad)) targets clean, $execs executions"
}

format_counts() {
    local n bad
    n=$(ls src/*/*.c src/*/*.h tool/*.c tool/*.h tests/unit/*.c tests/unit/*.h tests/fuzz/*.c | wc -l)
    bad=$(grep -cE 'error: code should be clang-formatted' "$1")
    if [ "$bad" -eq 0 ]; then
        echo "$n files formatted"
    else
        echo "$bad places in $(grep -E 'error: code should be clang-formatted' "$1" | cut -d: -f1 | sort -u | wc -l) of $n files need clang-format (make format)"
    fi
}

stage() { # name target counter
    local name=$1 target=$2 counter=$3 log=$logs/$1.log
    echo
    echo "==== $name: $make $target"
    local start=$SECONDS
    $make --no-print-directory "$target" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    times+=("$((SECONDS - start)) s")
    names+=("$name")
    details+=("$($counter "$log")")
    if [ "$rc" -eq 0 ]; then
        results+=(passed)
    else
        results+=(FAILED)
        failed=1
    fi
}

begin=$SECONDS
# The sanitizer build compiles while the first two stages run: the plain
# stage's tests wait on browsers, Java and servers about a third of the
# time, and the compiler fills it (about 40 s less in all on two cores).
# Its output is shown at the start of the sanitizer stage; a build that
# failed fails there again, with its errors, when test-asan builds.
$make --no-print-directory san-build >"$logs/san-build.log" 2>&1 &
san_build=$!
stage "formatting" format-check format_counts
stage "plain tests" test-build ctest_counts
wait "$san_build"
echo
echo "==== the sanitizer build, made during the stages above ($logs/san-build.log)"
tail -n 5 "$logs/san-build.log"
stage "sanitizer tests" test-asan ctest_counts
stage "fuzz smoke" test-fuzz fuzz_counts

echo
echo "==== summary (logs in $logs/; $((SECONDS - begin)) s in all)"
for i in "${!names[@]}"; do
    printf '%-16s %-7s %6s  %s\n' "${names[$i]}" "${results[$i]}" "${times[$i]}" "${details[$i]}"
done
if [ "$failed" -ne 0 ]; then
    echo "make test: FAILED"
    exit 1
fi
echo "make test: all passed"
