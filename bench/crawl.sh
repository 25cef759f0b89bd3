#!/usr/bin/env bash
# Benchmark of `wheelarch crawl` against a local server (tests/lib/httpserver.py
# on 127.0.0.1): bytes the server sent for a large wheel divided by the
# wheel's size, and the wall time of an unchanged re-crawl against curl
# fetching the same index pages once, measured in the same run.  A wheel
# whose GPU-code members are under 90% of it is read by Range (target: those
# members plus under 1 MB); one whose members are most of it (a real torch
# wheel) is read whole once and its sha256 checked (target: its size).
#
# usage: bench/crawl.sh BUILD_DIR
#   Uses the large wheel bench/scan.sh builds when it is there, else the
#   sample wheel of `make run`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: bench/crawl.sh BUILD_DIR}" && pwd)
work=$here/work/crawl
rm -rf "$work"
mkdir -p "$work/root/whl/cu126/torch" "$work/root/whl/cu128/torch" "$work/root/whl/cu129/samplepkg"

wheel=$(ls "$here"/work/torch-*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ]; then
    wheel=$(python3 "$here/../scripts/make-sample-wheel.py" "$work/sample" | tail -1)
fi
name=$(basename "$wheel")
project=${name%%-*}
mkdir -p "$work/root/whl/cu126/$project"
ln -s "$wheel" "$work/root/whl/cu126/$name"
sha=$(sha256sum "$wheel" | cut -d' ' -f1)
enc=${name//+/%2B}
small=$(python3 "$here/../scripts/make-sample-wheel.py" "$work/sample" | tail -1)
small_sha=$(sha256sum "$small" | cut -d' ' -f1)
# cu126: the large wheel.  cu128: 400 wheels of one release (one Python tag
# each, all the sample wheel's bytes), so the re-crawl has 401 known wheels.
python3 - "$work/root/whl" "$enc" "$name" "$sha" "$small" "$small_sha" "$project" <<'PY'
import os, sys
root, enc, name, sha, small, small_sha, project = sys.argv[1:]
def page(dirname, links):
    with open(os.path.join(root, dirname, "index.html"), "w") as f:
        f.write("<!DOCTYPE html>\n<html>\n  <body>\n    <h1>Links for torch</h1>\n")
        for href, text in links:
            f.write('    <a href="%s">%s</a><br/>\n' % (href, text))
        f.write("  </body>\n</html>\n")
page("cu126/" + project, [("/whl/cu126/%s#sha256=%s" % (enc, sha), name)])
links = []
for i in range(400):
    n = "torch-2.8.0+cu128-cp%d-cp%d-linux_x86_64.whl" % (300 + i, 300 + i)
    os.symlink(small, os.path.join(root, "cu128", n))
    links.append(("/whl/cu128/%s" % n.replace("+", "%2B"), n))  # no hash: keyed by URL
page("cu128/torch", links)
PY
echo '{}' > "$work/faults.json"
python3 "$here/../tests/lib/httpserver.py" "$work/root" --faults "$work/faults.json" \
    --log "$work/server.log" --port-file "$work/port" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do [ -f "$work/port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$work/port")/whl"

# 1. Range mode: bytes for the wheel / wheel size.
"$build/wheelarch" crawl --quiet --index "$url/cu126/" --project "$project" --cache "$work/cache" \
    --json > "$work/crawl.json" 2> "$work/crawl1.txt"
size=$(stat -c %s "$wheel")
sent=$(python3 - "$work/server.log" "$enc" <<'PY'
import json, sys
print(sum(e["bytes"] for e in map(json.loads, open(sys.argv[1])) if e["path"].endswith(sys.argv[2])))
PY
)
gpu=$(python3 - "$wheel" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
gpu = [i for i in z.infolist() if i.filename.endswith((".so", ".dll", ".pyd")) or ".so." in i.filename]
print(sum(i.compress_size + 30 + len(i.filename) + len(i.extra) for i in gpu))
PY
)
mode=$(python3 -c 'import json,sys; l=json.loads(open(sys.argv[1]).readline()); print(l["fetch"]["mode"], l["sha256_verified"])' "$work/crawl.json")
echo "wheel: $name ($size bytes; candidate members $gpu bytes, $(( gpu * 100 / size ))%)"
echo "fetch mode, sha256 verified: $mode"
echo "bytes sent for the wheel: $sent"
echo "  ratio to the wheel's size: $(echo "scale=4; $sent / $size" | bc)"
if [ "${mode%% *}" = range ]; then
    echo "  above the candidate members' compressed bytes: $(( (sent - gpu) / 1024 )) KiB (target < 1024 KiB)"
else
    echo "  read whole once (target: ratio 1.0, sha256 verified)"
fi

# 1b. Range mode, always: the sample wheel's members plus 16 MB of data
# that holds no GPU code (so its GPU members are under 90% of it).  Bytes
# sent for it against what must be read: the GPU members, METADATA (its
# Requires-Dist), and the zip's end (central directory).
padded=$(python3 - "$small" "$work/root/whl/cu129" <<'PY'
import os, sys, zipfile
src, out = sys.argv[1:]
name = os.path.basename(src).replace("+cu130", "+cu129")
with zipfile.ZipFile(src) as zi, zipfile.ZipFile(os.path.join(out, name), "w") as zo:
    for i in zi.infolist():
        if not i.filename.endswith(".dist-info/METADATA"):
            zo.writestr(i, zi.read(i.filename))
    zo.writestr(zipfile.ZipInfo("samplepkg/data/blob.bin"), os.urandom(16 << 20))
    meta = "Metadata-Version: 2.1\nName: samplepkg\nVersion: 1.0+cu129\n" + "".join(
        "Requires-Dist: nvidia-%s-cu12==12.9.%d; platform_system == \"Linux\"\n" % (n, k)
        for k, n in enumerate(["cublas", "cudnn", "cufft", "curand", "cusolver", "cusparse", "nccl"]))
    zo.writestr("samplepkg-1.0.dist-info/METADATA", meta, zipfile.ZIP_DEFLATED)
print(name)
PY
)
penc=${padded//+/%2B}
printf '<html><body><a href="/whl/cu129/%s">%s</a></body></html>\n' "$penc" "$padded" \
    > "$work/root/whl/cu129/samplepkg/index.html"
"$build/wheelarch" crawl --quiet --index "$url/cu129/" --project samplepkg --cache "$work/cache" \
    --json > "$work/crawl-range.json" 2> "$work/crawl2.txt"
python3 - "$work/root/whl/cu129/$padded" "$work/server.log" "$penc" "$work/crawl-range.json" <<'PY'
import json, sys, zipfile
path, log, enc, line = sys.argv[1:]
z = zipfile.ZipFile(path)
def local(i):
    return i.compress_size + 30 + len(i.filename) + len(i.extra)
gpu = sum(local(i) for i in z.infolist() if i.filename.endswith((".so", ".dll", ".pyd")) or ".so." in i.filename)
meta = sum(local(i) for i in z.infolist() if i.filename.endswith(".dist-info/METADATA"))
sent = sum(e["bytes"] for e in map(json.loads, open(log)) if e["path"].endswith(enc))
rec = json.loads(open(line).readline())
size = z.fp.seek(0, 2)
print("range wheel: %d bytes, GPU members %d bytes, METADATA %d bytes; fetch mode %s; requires_dist %s"
      % (size, gpu, meta, rec["fetch"]["mode"], "read" if rec.get("requires_dist") is not None else "none"))
print("  bytes sent: %d; bytes sent / GPU member bytes: %.3f; above GPU members + METADATA: %d KiB (target < 1024 KiB)"
      % (sent, sent / gpu, (sent - gpu - meta) // 1024))
PY

# 2. Unchanged re-crawl of both indexes vs curl fetching the same pages once.
"$build/wheelarch" crawl --quiet --index "$url/cu128/" --project torch --cache "$work/cache" \
    > /dev/null 2>&1
now() { date +%s.%N; }
s=$(now)
for i in 1 2 3; do
    "$build/wheelarch" crawl --quiet --index "$url/cu126/" --index "$url/cu128/" --project torch \
        --project "$project" --cache "$work/cache" > /dev/null 2> "$work/recrawl.txt"
done
e=$(now)
recrawl=$(echo "($e - $s) / 3" | bc -l)
s=$(now)
for i in 1 2 3; do
    curl -s -o /dev/null "$url/cu126/$project/" -o /dev/null "$url/cu128/torch/"
done
e=$(now)
ref=$(echo "($e - $s) / 3" | bc -l)
sed 's/^/re-crawl summary: /' "$work/recrawl.txt"
printf 'unchanged re-crawl (2 pages, 401 wheels known): %.3f s; curl fetching the 2 pages: %.3f s; ratio %.1f\n' \
    "$recrawl" "$ref" "$(echo "$recrawl / $ref" | bc -l)"
