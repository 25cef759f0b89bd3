#!/usr/bin/env bash
# Benchmark of `wheelarch query` finding the Python it answers for: the
# median of RUNS (default 10) runs of
#   query --gpu "GTX 1080 Ti"               python3 on PATH, found as the
#                                           first line says (on a pyenv
#                                           machine: pyenv's version files)
#   query --gpu "GTX 1080 Ti" --python X.Y  no Python looked for (the reference)
#   python3 -c 'import sys'                 what asking the interpreter costs
#                                           (the way query found it before)
# in the same run, with their ratios.  Target: the first within 50 ms and
# within 1.5 x the reference.  With CACHE (a database folder, e.g. one
# bench/build.sh made of 100,000 records) the answers read it; without, the
# shipped data alone.  When python3 on PATH is not a pyenv shim, a pyenv
# root is made under the work folder around the real interpreter, so the
# case measured is the one pyenv users have.
# usage: bench/query.sh BUILD_DIR [CACHE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: bench/query.sh BUILD_DIR [CACHE]}" && pwd)
cache=${2:-}
runs=${RUNS:-10}
work=${BENCH_WORK:-$here/work}/query
rm -rf "$work"
mkdir -p "$work/empty-cache"
[ -n "$cache" ] || cache=$work/empty-cache

py=$(command -v python3) || { echo "bench/query.sh: no python3 on PATH" >&2; exit 2; }
case $py in
*/shims/python3) ;;
*)
    # a pyenv root around the real interpreter: ROOT/shims/python3 runs
    # pyenv's way (a shell script that execs the version's interpreter)
    real=$(readlink -f "$py")
    ver=$("$real" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
    root=$work/pyenv
    mkdir -p "$root/shims" "$root/versions/$ver/bin"
    ln -s "$real" "$root/versions/$ver/bin/$(basename "$real")"
    ln -s "$(basename "$real")" "$root/versions/$ver/bin/python3"
    echo "$ver" > "$root/version"
    printf '#!/usr/bin/env bash\nexec "%s/versions/$(cat %s/version)/bin/python3" "$@"\n' \
        "$root" "$root" > "$root/shims/python3"
    chmod +x "$root/shims/python3"
    export PATH=$root/shims:$PATH
    py=$root/shims/python3
    ;;
esac
pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')

ms() { echo "($2 - $1) * 1000" | bc -l; }
# the median of the numbers given
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# runs "$@" RUNS times (its exit status 0, 1 or 4 is an answer); leaves the
# median wall time in ms in $med
timed() {
    local t=() s e rc
    for _ in $(seq "$runs"); do
        s=$(date +%s.%N)
        rc=0
        "$@" > "$work/out.txt" 2>&1 || rc=$?
        e=$(date +%s.%N)
        case $rc in 0 | 1 | 4) ;; *) echo "bench/query.sh: $* failed ($rc):" >&2; cat "$work/out.txt" >&2; exit 1 ;; esac
        t+=("$(ms "$s" "$e")")
    done
    med=$(median "${t[@]}")
}

q=("$build/wheelarch" query --gpu "GTX 1080 Ti" --platform linux-x86_64 --cache "$cache")
"${q[@]}" > "$work/first.txt" || true
timed "${q[@]}"
found=$med
how=$(head -1 "$work/first.txt")
timed "${q[@]}" --python "$pyver"
given=$med
timed python3 -c 'import sys'
asked=$med

printf 'python3 on PATH: %s\n' "$py"
printf 'first line: %s\n' "$how"
printf 'query, Python found: %.1f ms median of %d (target <= 50 ms)\n' "$found" "$runs"
printf 'query --python %s: %.1f ms (the reference)\n' "$pyver" "$given"
printf 'python3 -c "import sys" through PATH: %.1f ms (what asking costs)\n' "$asked"
printf 'found / reference: %.2f (target <= 1.5); asking / found: %.1f\n' \
    "$(echo "$found / $given" | bc -l)" "$(echo "$asked / $found" | bc -l)"
