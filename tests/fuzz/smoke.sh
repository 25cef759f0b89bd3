#!/usr/bin/env bash
# Short libFuzzer run of every target, seeded from the test fixtures.
# usage: tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET]
set -euo pipefail
build=$1
secs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures
corpus=$build/fuzz-corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{elf,pe,fatbin,offload,zip,names,index,tmpl}
cp "$fixtures"/cuda/*.so "$fixtures"/cuda/*.o "$corpus/elf/"
cp "$fixtures"/cuda/*.dll "$corpus/pe/"
# fatbin seeds get the two chunking bytes the target reads first
for f in "$fixtures"/cuda/*.fatbin "$fixtures"/cuda/libk_two.so "$fixtures"/cuda/test.dll; do
    { printf '\x07\x00'; cat "$f"; } > "$corpus/fatbin/$(basename "$f")"
done
for f in "$fixtures"/hip/*.co "$fixtures"/hip/*.hsaco "$fixtures"/hip/libhip_two.so "$fixtures"/hip/libhip_ccob.so; do
    { printf '\x07\x00'; cat "$f"; } > "$corpus/offload/$(basename "$f")"
done
python3 - "$corpus/zip" "$fixtures/cuda" <<'PY'
import os, sys, zipfile
out, cuda = sys.argv[1], sys.argv[2]
for i, (name, comp) in enumerate([("libk_two.so", zipfile.ZIP_DEFLATED), ("codec_zstd.fatbin", zipfile.ZIP_STORED)]):
    with zipfile.ZipFile(os.path.join(out, "seed%d.zip" % i), "w", comp) as z:
        z.write(os.path.join(cuda, name), "pkg/" + name)
        z.writestr("pkg/__init__.py", "x = 1\n")
PY
printf 'torch-2.8.0%%2Bcu128-cp312-cp312-manylinux_2_28_x86_64.whl' > "$corpus/names/w1"
printf -- '-gencode;arch=compute_90a,code=[sm_90a,compute_90a];-arch=sm_80' > "$corpus/names/g1"
shared_samples=$here/../../../shared/samples
if [ -d "$shared_samples" ]; then
    cp "$shared_samples"/*.html "$corpus/index/" 2>/dev/null || true
fi
printf '<a href="/whl/cu126/torch-2.8.0%%2Bcu126-cp312-cp312-win_amd64.whl#sha256=%064d" data-requires-python="&gt;=3.9" data-yanked>x</a>' 0 > "$corpus/index/a1"
printf '{"meta": {"api-version": "1.1"}, "files": [{"filename": "a.whl", "url": "../a.whl", "hashes": {"sha256": "%064d"}, "yanked": "r"}]}' 0 > "$corpus/index/j1"
printf '{"indexes": [{"root": "https://x/whl/", "ids": ["cu128"]}], "projects": ["torch"], "http": {"retries": 1}}' > "$corpus/index/c1"
printf '<ul>\n  {{#items}}\n  <li>{{name}}</li>\n  {{/items}}\n</ul>\n{{^empty}}none{{/empty}}{{! c }}' > "$corpus/tmpl/t1"
printf '{{=<%% %%>=}}<%%#obj%%><%%child.name%%><%%/obj%%>\n  <%%> part%%>\n<%%={{ }}=%%>{{>self}}{{&n}}' > "$corpus/tmpl/t2"
status=0
for t in elf pe fatbin offload zip names index tmpl; do
    echo "== fuzz_$t: ${secs}s"
    if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz_$t-" "$corpus/$t" > "$build/fuzz_$t.log" 2>&1; then
        echo "fuzz_$t FAILED"; tail -40 "$build/fuzz_$t.log"; status=1
    else
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz_$t.log" || true
    fi
done
exit $status
