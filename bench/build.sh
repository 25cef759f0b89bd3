#!/usr/bin/env bash
# Benchmark of `wheelarch build`: renders a database of N wheel records
# (default 10,000: 1,000 releases x variants x platforms, one scanned record
# and nine inferred ones per group, records copied from a real scan of the
# test fixtures) and prints the wall time of a full build and of a rebuild
# with nothing changed, against `cp -r` of the produced site as a reference
# for the cost of just writing that many files, and against python3 merely
# parsing every record (json.load) as a reference for reading the database.
# Target: full build < 2 s.
# usage: bench/build.sh BUILD_DIR [N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: bench/build.sh BUILD_DIR [N]}" && pwd)
n=${2:-10000}
work=$here/work/build
rm -rf "$work"
mkdir -p "$work/cache/records"
python3 "$here/make-records.py" "$build/wheelarch" "$work/cache/records" "$n"
now() { date +%s.%N; }
s=$(now)
"$build/wheelarch" build --cache "$work/cache" --out "$work/site" -q
e=$(now)
full=$(echo "$e - $s" | bc)
s=$(now)
"$build/wheelarch" build --cache "$work/cache" --out "$work/site" 2> "$work/rebuild.txt"
e=$(now)
again=$(echo "$e - $s" | bc)
s=$(now)
cp -r "$work/site" "$work/site-copy"
e=$(now)
copy=$(echo "$e - $s" | bc)
s=$(now)
python3 -c 'import json, os, sys
d = sys.argv[1]
for n in os.listdir(d):
    with open(os.path.join(d, n)) as f:
        json.load(f)' "$work/cache/records"
e=$(now)
pyread=$(echo "$e - $s" | bc)
files=$(find "$work/site" -type f | wc -l)
size=$(du -sh "$work/site" | cut -f1)
printf 'records: %s; site: %s files, %s\n' "$n" "$files" "$size"
printf 'full build: %.2f s (target < 2 s); rebuild, nothing changed: %.2f s; cp -r of the site: %.2f s\n' \
    "$full" "$again" "$copy"
printf 'python3 json.load of every record: %.2f s\n' "$pyread"
printf 'full build / cp -r: %.1f; full build / python3 reading the records: %.2f\n' \
    "$(echo "$full / $copy" | bc -l)" "$(echo "$full / $pyread" | bc -l)"
sed 's/^/rebuild: /' "$work/rebuild.txt"
