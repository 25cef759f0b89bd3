#!/usr/bin/env bash
# Benchmark of `wheelarch build` and `wheelarch query` on a database of N
# wheel records (bench/make-records.py: records copied from a real scan of
# the test fixtures, one scanned and the rest inferred per group), at each
# N given (default: 10,000 and 100,000), in two mixes (MIXES, default
# "pytorch stress"):
#   pytorch  download.pytorch.org's shape: torch, torchvision, torchaudio,
#            their stable releases and, for the rest, daily nightlies (the
#            site shows the newest 30, --nightlies);
#   stress   one project with N/120 stable minor releases (834 at 100,000):
#            every per-release page and table at its largest.
# Per N and mix it prints:
#   - the time `db import` takes to store them in the SQLite database;
#   - the wall time of a full build (median of three) and of a rebuild with nothing changed,
#     against `cp -r` of the produced site (the cost of just writing that
#     many files) and python3 merely parsing every record (json.load);
#   - the build's peak memory (GNU time);
#   - `query --gpu "GTX 1080 Ti"`: wall time and peak memory;
#   - the schema upgrade that remakes every derived row (version 11's step),
#     against the import of the same records;
#   - the site's size in bytes and files (GitHub Pages publishes <= 1 GB).
# Targets (the SQLite issue): full build <= 3 s and <= 3 x cp -r, rebuild
# <= 0.5 s, build peak RSS <= 256 MB, query <= 50 ms, site <= 300 MB, all
# at 100,000 records.  The script reports; it does not fail on a target.
# BENCH_WORK=DIR puts the databases and sites there instead of bench/work
# (e.g. /dev/shm, to see the CPU's part without the disk's).
# usage: bench/build.sh BUILD_DIR [N...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: bench/build.sh BUILD_DIR [N...]}" && pwd)
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
gtime=/usr/bin/time
[ -x "$gtime" ] || { echo "bench/build.sh: GNU time (/usr/bin/time) is needed for peak memory" >&2; exit 2; }

now() { date +%s.%N; }
# runs "$@", leaves wall seconds in $wall and peak RSS in KiB in $rss
# (after a sync: each step pays for its own writes, not for what an
# earlier step left for the kernel to write back)
measure() {
    local s e
    sync
    s=$(now)
    "$gtime" -f %M -o "$work/time.txt" "$@"
    e=$(now)
    wall=$(echo "$e - $s" | bc)
    rss=$(tail -1 "$work/time.txt")
}

# the middle of three numbers
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

read -r -a mixes <<< "${MIXES:-pytorch stress}"
for n in "${sizes[@]}"; do
  for mix in "${mixes[@]}"; do
    work=${BENCH_WORK:-$here/work}/build-$n-$mix
    rm -rf "$work"
    mkdir -p "$work/records"
    python3 "$here/make-records.py" "$build/wheelarch" "$work/records" "$n" "$mix"
    measure "$build/wheelarch" db import "$work/records" --cache "$work/cache"
    import=$wall
    db_bytes=$(du -sb "$work/cache" | cut -f1)

    # Three full builds, each into a new folder, and after each a cp -r of
    # what it produced: the medians are compared (this machine's disk
    # discards deleted blocks online, which makes single timings of
    # writing many files vary by 3x).  Each is timed twice: until it
    # returns (its files may still be only in the page cache) and until
    # a sync after it returns (its files are on the disk).
    fulls=() copies=() fulls_disk=() copies_disk=() full_rss=0
    for i in 1 2 3; do
        measure "$build/wheelarch" build --cache "$work/cache" --out "$work/site-$i" -q
        fulls+=("$wall")
        [ "$rss" -gt "$full_rss" ] && full_rss=$rss
        s=$(now)
        sync
        e=$(now)
        fulls_disk+=("$(echo "$wall + $e - $s" | bc)")
        s=$(now)
        cp -r "$work/site-$i" "$work/site-copy-$i"
        e=$(now)
        copies+=("$(echo "$e - $s" | bc)")
        sync
        e=$(now)
        copies_disk+=("$(echo "$e - $s" | bc)")
    done
    full_disk=$(median "${fulls_disk[@]}")
    copy_disk=$(median "${copies_disk[@]}")
    full=$(median "${fulls[@]}")
    copy=$(median "${copies[@]}")
    rm -rf "$work/site-copy-"* "$work/site-2" "$work/site-3"
    mv "$work/site-1" "$work/site"
    mv "$work/site-1.stamp" "$work/site.stamp" # the stamp names no folder
    rm -f "$work/site-"[123].stamp "$work/site-"[123].lock
    measure "$build/wheelarch" build --cache "$work/cache" --out "$work/site" -q
    again=$wall
    s=$(now)
    python3 -c 'import json, os, sys
d = sys.argv[1]
for n in os.listdir(d):
    with open(os.path.join(d, n)) as f:
        json.load(f)' "$work/records"
    e=$(now)
    pyread=$(echo "$e - $s" | bc)
    # query's exit status says how the answer runs (0 native, 4 not
    # natively, 1 not at all): any of them is an answer
    qrc=0
    measure "$build/wheelarch" query --gpu "GTX 1080 Ti" --cache "$work/cache" --platform linux-x86_64 \
        > "$work/query.txt" || qrc=$?
    case $qrc in
    0 | 1 | 4) ;;
    *) echo "bench/build.sh: query failed (exit status $qrc)" >&2; exit 1 ;;
    esac
    query=$wall query_rss=$rss
    # the schema upgrade that makes every derived row anew (version 11's
    # step): a copy of the database told it is version 10, upgraded by
    # db check, against the import of the same records
    cp "$work/cache/wheelarch.db" "$work/upgrade.db"
    mkdir -p "$work/upgrade"
    mv "$work/upgrade.db" "$work/upgrade/wheelarch.db"
    python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version = 10")' \
        "$work/upgrade/wheelarch.db"
    measure "$build/wheelarch" db check --cache "$work/upgrade" > /dev/null
    upgrade=$wall upgrade_rss=$rss
    rm -rf "$work/upgrade"
    files=$(find "$work/site" -type f | wc -l)
    bytes=$(du -sb "$work/site" | cut -f1)

    printf '== %s records, %s mix\n' "$n" "$mix"
    printf 'db import of the JSON records: %.2f s; database %d MB\n' "$import" $((db_bytes / 1024 / 1024))
    printf 'full build: %.2f s (median of %s), peak %d MB (targets <= 3 s, <= 256 MB); rebuild, nothing changed: %.2f s (target <= 0.5 s)\n' \
        "$full" "$(printf '%.2f ' "${fulls[@]}" | sed 's/ $//')" $((full_rss / 1024)) "$again"
    printf 'cp -r of the site: %.2f s (median of %s); full build / cp -r: %.1f (target <= 3)\n' \
        "$copy" "$(printf '%.2f ' "${copies[@]}" | sed 's/ $//')" "$(echo "$full / $copy" | bc -l)"
    printf 'until on disk (each followed by sync): full build %.2f s, cp -r %.2f s; full build / cp -r: %.1f\n' \
        "$full_disk" "$copy_disk" "$(echo "$full_disk / $copy_disk" | bc -l)"
    printf 'python3 json.load of every record: %.2f s; full build / that: %.2f\n' \
        "$pyread" "$(echo "$full / $pyread" | bc -l)"
    printf 'query --gpu "GTX 1080 Ti": %.0f ms, peak %d MB (target <= 50 ms)\n' \
        "$(echo "$query * 1000" | bc -l)" $((query_rss / 1024))
    printf 'schema upgrade remaking every derived row (db check of a version-10 copy): %.2f s, peak %d MB; upgrade / db import: %.2f\n' \
        "$upgrade" $((upgrade_rss / 1024)) "$(echo "$upgrade / $import" | bc -l)"
    printf 'site: %d MB in %d files (target <= 300 MB; GitHub Pages: 1 GB)\n' \
        $((bytes / 1024 / 1024)) "$files"
    rm -rf "$work/records" # the database has them
  done
done
