/*
 * cli_table: every command and option, with its help text.
 *
 * This table is the one place options are described: --help prints it and
 * README.md's command reference is generated from it (`wheelarch help
 * --markdown`); a test checks that the README matches.
 */
#include "cli.h"

#include <stddef.h>

static const struct cli_option scan_options[] = {
    {"json", 0, NULL, "print one JSON object per input per line (the public format)", 0},
    {"quiet", 'q', NULL, "print nothing for inputs without GPU code", 0},
    {"timeout", 0, "SECONDS",
     "for URLs: give up on a connection, or a transfer slower than 1 KiB/s, after this long", 0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option crawl_options[] = {
    {"config", 0, "FILE", "configuration file (default: wheelarch.json in the current directory)",
     0},
    {"index", 0, "URL",
     "index to read, e.g. https://download.pytorch.org/whl/cu128/ "
     "(repeatable; replaces the configured indexes)",
     1},
    {"project", 0, "NAME",
     "project to read, e.g. torch (repeatable; replaces the configured "
     "projects)",
     1},
    {"cache", 0, "DIR", "database folder (default: cache)", 0},
    {"jobs", 'j', "N", "wheels read at once (default: the number of cores)", 0},
    {"all", 0, NULL, "scan every wheel instead of one per release, variant and platform", 0},
    {"bundled", 0, NULL,
     "also read NVIDIA libraries bundled in wheels (cuDNN, cuBLAS, NCCL ...), which verdicts leave "
     "out (a wheel read whole reads them anyway)",
     0},
    {"plan", 0, NULL,
     "read the index pages only and print, per project, the wheels a crawl would read, infer or "
     "find known, and the bytes of those it would read where the index gives sizes; writes no "
     "record",
     0},
    {"shard", 0, "K/N", "crawl only the K-th of N deterministic shares of the wheels", 0},
    {"timeout", 0, "SECONDS",
     "give up on a connection, or a transfer slower than 1 KiB/s, after this long "
     "(default 15 s to connect, 60 s of a slow transfer)",
     0},
    {"outages-allowed", 0, "N",
     "runs in a row in which no index answers that exit 6, a hiccup (default: 2); the next "
     "exits 7, an outage (counted in DIR/outages)",
     0},
    {"json", 0, NULL,
     "print one JSON line per wheel: the scan object plus url, index and status; then a "
     "summary line, {\"summary\": {...}} with the counts, the exit status and its word",
     0},
    {"no-wait", 0, NULL,
     "fail at once instead of waiting when another wheelarch holds the database", 0},
    {"quiet", 'q', NULL, "no progress display and no per-wheel log lines", 0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option query_options[] = {
    {"gpu", 0, "NAME",
     "the GPU as you know it: a name (\"1080 ti\", \"RTX 4090\", \"a100\", \"RX 7900 XTX\"), "
     "what nvidia-smi, torch or rocminfo print (\"NVIDIA GeForce RTX 3060 Laptop GPU\"), or a "
     "device code (6.1, sm_61, gfx1100); a miss says which names are near; repeat it for a "
     "machine with several GPUs.  Without --gpu and --cc: this machine's GPUs and driver "
     "(NVML, else /proc/driver/nvidia/version and nvidia-smi; AMD: the KFD topology), or "
     "WHEELARCH_GPUS (e.g. 6.1,12.0) and WHEELARCH_DRIVER when set",
     1},
    {"gpu-index", 0, "N",
     "of several GPUs (detected or given), answer for the N-th only (from 0, in the order "
     "nvidia-smi lists them)",
     0},
    {"cc", 0, "X.Y",
     "the GPU by compute capability instead, e.g. 6.1 or sm_61 (or an AMD processor: gfx1100)", 0},
    {"driver", 0, "VERSION",
     "the installed driver, e.g. 570.86.15 (nvidia-smi shows it); a branch alone (580) is read as "
     "its newest driver",
     0},
    {"project", 0, "NAME", "project (default: torch)", 0},
    {"python", 0, "X.Y|PATH|any",
     "the Python the wheels are for: a version (3.12, 3.13t for a free-threaded build), an "
     "interpreter to ask, or any (no Python constraint); default: python3 on PATH, which the "
     "first line names",
     0},
    {"stack", 0, NULL,
     "every crawled project instead, torch first (the GPU libraries wheels pin are judged "
     "with the wheels that pin them)",
     0},
    {"version", 0, "V", "release, e.g. 2.8 or 2.8.0 (default: the newest in the data)", 0},
    {"platform", 0, "P",
     "linux-x86_64, linux-aarch64, windows-x86_64 or windows-arm64 (default: this machine's)", 0},
    {"cache", 0, "DIR", "database folder (default: cache)", 0},
    {"json", 0, NULL,
     "print one JSON object with \"variants\" and \"recommendation\" (--stack: {\"stack\": "
     "[one per project]})",
     0},
    {"differences", 0, NULL,
     "instead: list where the binaries read disagree with PyTorch's "
     "declared arch lists",
     0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option doctor_options[] = {
    {"python", 0, "PATH",
     "the Python whose environment to check (default: python3 on PATH; its "
     "sysconfig purelib and platlib folders)",
     0},
    {"site-packages", 0, "DIR", "check this folder instead (repeatable)", 1},
    {"gpu", 0, "NAME", "judge for this GPU instead of this machine's (repeatable)", 1},
    {"cc", 0, "X.Y", "judge for this compute capability or AMD processor instead", 0},
    {"gpu-index", 0, "N", "of several GPUs, judge for the N-th only (from 0)", 0},
    {"driver", 0, "VERSION",
     "the driver instead of the detected one, e.g. 570.86.15, or a branch (580: its newest)", 0},
    {"platform", 0, "P",
     "linux-x86_64, linux-aarch64, windows-x86_64 or windows-arm64 (default: this machine's)", 0},
    {"cache", 0, "DIR", "database folder for the fixes (default: cache; works without)", 0},
    {"verify", 0, NULL,
     "also ask the NVIDIA driver (libcuda.so.1): hand each module's SASS, then its PTX, to "
     "it and report what loaded natively, by JIT only (timed) or not at all beside the rules' "
     "verdict; a disagreement exits 6. The driver runs in a child process: one that crashes, "
     "exits or hangs fails the check (exit 1). Without a driver or GPU it says so and checks "
     "as without",
     0},
    {"verify-timeout", 0, "SECONDS",
     "with --verify: how long the driver may take over one file's modules (their loads and "
     "PTX JIT) before its process is stopped and the check fails (default: 600)",
     0},
    {"json", 0, NULL, "print one JSON object (see README.md, doctor)", 0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option variants_options[] = {
    {"gpu", 0, "NAME", "these GPUs instead of this machine's (repeatable)", 1},
    {"cc", 0, "X.Y", "this compute capability or AMD processor instead", 0},
    {"gpu-index", 0, "N", "of several GPUs, the N-th only (from 0)", 0},
    {"driver", 0, "VERSION",
     "the driver instead of the detected one, e.g. 570.86.15, or a branch (580: its newest)", 0},
    {"platform", 0, "P",
     "linux-x86_64, linux-aarch64, windows-x86_64 or windows-arm64 (default: this machine's)", 0},
    {"json", 0, NULL, "print {NAMESPACE: {FEATURE: [VALUE...]}}", 0},
    {"static", 0, NULL,
     "print them as static compatibility lists (the PEP 850 draft's shape, "
     "{NAMESPACE: {\"static-properties\": {FEATURE: [VALUE...]}}}), most preferred first, as "
     "api/v1/variants/static/ has them",
     0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option explain_options[] = {
    {"driver", 0, "VERSION", "the NVIDIA driver, when the text has no nvidia-smi header", 0},
    {"python", 0, "X.Y|PATH|any", "the Python to answer for (default: any)", 0},
    {"platform", 0, "P",
     "linux-x86_64, linux-aarch64, windows-x86_64 or windows-arm64 (default: this machine's)", 0},
    {"cache", 0, "DIR", "the database folder (default: cache)", 0},
    {"json", 0, NULL,
     "print one JSON line of what was read (messages, gpu, device, installed_arch_list, "
     "installed_verdict, driver), then query --json's answer on the next",
     0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option build_options[] = {
    {"cache", 0, "DIR", "database folder (default: cache)", 0},
    {"out", 0, "DIR",
     "output folder, replaced atomically (default: site); it must be new, empty, or a folder "
     "wheelarch wrote (it holds .wheelarch-output): any other is refused, never deleted",
     0},
    {"base-url", 0, "URL",
     "where the site will be served, for canonical links and feed URLs; "
     "internal links stay relative",
     0},
    {"nightlies", 0, "N",
     "nightly (.dev) versions per project the site, feed and simple/ indexes show, the newest "
     "(default: 30; \"all\" for every one; the database keeps them all)",
     0},
    {"simple-json", 0, NULL,
     "also write each simple/ index as PEP 691 JSON (index.json beside index.html), for a server "
     "that answers Accept: application/vnd.pypi.simple.v1+json with it",
     0},
    {"today", 0, "DATE",
     "the day (YYYY-MM-DD) the data is judged fresh on: a torch release announced for an earlier "
     "day and absent from the data gets a warning here and a banner on the site (default: today "
     "in UTC, or SOURCE_DATE_EPOCH's day when that is set)",
     0},
    {"no-wait", 0, NULL,
     "fail at once instead of waiting when another wheelarch holds the output folder", 0},
    {"quiet", 'q', NULL, "no summary line", 0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option db_options[] = {
    {"cache", 0, "DIR", "database folder (default: cache)", 0},
    {"config", 0, "FILE",
     "import: the configuration whose indexes the records may name besides "
     "download.pytorch.org's (default: wheelarch.json in the current directory, when there is "
     "one)",
     0},
    {"index", 0, "URL",
     "import: an index the records may name besides those (repeatable), as crawl --index reads "
     "it",
     1},
    {"out", 'o', "FILE",
     "export: write to FILE (atomically) instead of standard output; never the database folder, a "
     "file in it or its lock file",
     0},
    {"no-wait", 0, NULL, "import: fail at once instead of waiting when a crawl holds the database",
     0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option merge_options[] = {
    {"cache", 0, "DIR", "database folder to merge into (default: cache)", 0},
    {"config", 0, "FILE",
     "the configuration whose indexes the records may name besides download.pytorch.org's "
     "(default: wheelarch.json in the current directory, when there is one)",
     0},
    {"index", 0, "URL",
     "an index the records may name besides those (repeatable), as crawl --index reads it", 1},
    {"no-wait", 0, NULL, "fail at once instead of waiting when a crawl holds the database", 0},
    {NULL, 0, NULL, NULL, 0},
};

static const struct cli_option update_options[] = {
    {"config", 0, "FILE", "configuration file (default: wheelarch.json in the current directory)",
     0},
    {"index", 0, "URL", "index to read (repeatable; replaces the configured indexes)", 1},
    {"project", 0, "NAME", "project to read (repeatable; replaces the configured projects)", 1},
    {"cache", 0, "DIR", "database folder (default: cache)", 0},
    {"out", 0, "DIR",
     "output folder, replaced atomically (default: site); new, empty, or one wheelarch wrote", 0},
    {"base-url", 0, "URL", "where the site will be served (canonical links, feed URLs)", 0},
    {"outages-allowed", 0, "N",
     "runs in a row in which no index answers that exit 6, a hiccup (default: 2); the next "
     "exits 7, an outage",
     0},
    {"json", 0, NULL,
     "print one summary line at the end on standard output, {\"summary\": {...}}: the crawl's "
     "counts, crawl_exit, build_exit, exit and status (ok, partial, unreached, outage, failed)",
     0},
    {"nightlies", 0, "N",
     "nightly (.dev) versions per project the site, feed and simple/ indexes show, the newest "
     "(default: 30; \"all\" for every one; the database keeps them all)",
     0},
    {"simple-json", 0, NULL,
     "also write each simple/ index as PEP 691 JSON (index.json beside index.html), for a server "
     "that answers Accept: application/vnd.pypi.simple.v1+json with it",
     0},
    {"today", 0, "DATE",
     "the day (YYYY-MM-DD) the data is judged fresh on: a torch release announced for an earlier "
     "day and absent from the data gets a warning here and a banner on the site (default: today "
     "in UTC, or SOURCE_DATE_EPOCH's day when that is set)",
     0},
    {"jobs", 'j', "N", "wheels read at once (default: the number of cores)", 0},
    {"all", 0, NULL, "scan every wheel instead of one per release, variant and platform", 0},
    {"bundled", 0, NULL,
     "also read NVIDIA libraries bundled in wheels (cuDNN, cuBLAS, NCCL ...), which verdicts leave "
     "out (a wheel read whole reads them anyway)",
     0},
    {"timeout", 0, "SECONDS",
     "give up on a connection, or a transfer slower than 1 KiB/s, after this long", 0},
    {"no-wait", 0, NULL,
     "fail at once instead of waiting when another wheelarch holds the database or output folder",
     0},
    {"quiet", 'q', NULL, "only warnings and errors", 0},
    {NULL, 0, NULL, NULL, 0},
};

const struct cli_command cli_commands[] = {
    {"scan", "[--json] INPUT...",
     "Read the GPU architectures in wheels, ELF shared objects, PE DLLs and raw fatbins.",
     "INPUT is a local file, recognised by its content, not its name, or an http(s) URL of a "
     "wheel (read by range when the server allows it). Per binary: SASS targets (sm_XY, with "
     "the a/f suffixes), PTX targets (compute_XY) with their PTX ISA, how many fatbin modules "
     "carry each target and how many bytes it takes, the compression codecs, and the nvcc "
     "arch-flag string when the binary embeds one. Per wheel: the parsed file name, the sha256 "
     "and the members that hold GPU code. A target shown as sm_90a(2/343) is in 2 of the 343 "
     "modules. Exit status 0 when every input was read, 3 when some failed, 1 when all failed.",
     "wheelarch scan --json torch-2.8.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl", scan_options,
     cli_scan},
    {"crawl", "[--config FILE] [--index URL]... [--project NAME]... [--cache DIR] [OPTIONS]",
     "Read PyTorch-style package indexes and record every wheel's GPU targets in the database.",
     "Index pages (PEP 503 HTML or PEP 691 JSON) are fetched with conditional GETs. Each new "
     "wheel is streamed, never stored: when the server honours Range only the central directory "
     "and the members that can hold GPU code are read; otherwise the body is streamed once and "
     "checked against the index's sha256. Wheels of one (project, version, variant, platform) "
     "carry the same GPU code, so one is scanned and the others are recorded as inferred from "
     "it. Each wheel's record is stored in the database DIR/wheelarch.db (SQLite) in one "
     "transaction as soon as it is done, so an interrupted crawl resumes where it stopped, and "
     "wheels already recorded cost nothing. Failures are recorded too and retried on the next "
     "run. A wheel being read is noted in the database's journal; a note left by a run that "
     "crashed, hung or was killed makes that "
     "wheel failed for the next run, and the run after scans it alone in a child process, so "
     "one bad wheel cannot make every run fail. One crawl or update per database at a time "
     "(a lock on DIR.lock; a second one waits). Redirects: at most 5, and never from a public "
     "index to a loopback, private or link-local address. Exit status 0 when everything was "
     "read, 3 when some wheels or index pages failed (a hiccup: retried next run), 6 when no "
     "index answered in up to --outages-allowed runs in a row, 7 when none answered for more "
     "runs in a row than that (an outage), 1 when the database could not be used, 2 for bad "
     "arguments or configuration.",
     "wheelarch crawl --index https://download.pytorch.org/whl/cu126/ --project torch --json",
     crawl_options, cli_crawl},
    {"query", "[--gpu NAME... | --cc X.Y] [--driver V] [--project P] [--version V] [OPTIONS]",
     "Say which variant of a release runs on a GPU, and how to install it.",
     "Prints one line per variant (cu126, cu128, ...) of the release with its verdict: native "
     "(SASS for the GPU in every module), PTX JIT (only PTX covers it; compiled at first start "
     "by a driver that knows its PTX ISA), partial (some modules have nothing for the GPU), "
     "driver too old (the wheel's CUDA needs a newer driver), or no. Then the recommended index "
     "(native first, then the newest CUDA) with the pip and uv commands; when no variant works, "
     "the newest release that does. Nightlies and other pre-releases are considered only when "
     "--version names their release. Uses the database (verified and inferred rows) and PyTorch's "
     "declared arch lists shipped in data/, so it works before any crawl. Exit status 0 when "
     "the release asked about runs natively (with the driver and Python given), 4 when it runs "
     "but not natively (PTX JIT, or kernels missing), 1 when none of its builds runs as things "
     "are (the answer says what does: an older release, a newer driver, a source build), 2 for "
     "a usage error or a GPU the query cannot name.",
     "wheelarch query --gpu \"GTX 1080 Ti\" --driver 570.86.15 --version 2.8", query_options,
     cli_query},
    {"doctor", "[--python PATH | --site-packages DIR...] [--gpu NAME... | --cc X.Y] [OPTIONS]",
     "Check that the GPU code installed in a Python environment runs on this machine's GPUs.",
     "Lists the distributions installed in the environment (their .dist-info), scans every "
     "installed file that can hold GPU code with the same scanner as wheels, and judges each "
     "distribution with the GPU libraries it pins (cuDNN, cuBLAS, ...) for every GPU of this "
     "machine (detected as by query, or --gpu/--cc) and its driver: native, PTX JIT (the first "
     "start compiles), partial (names the libraries without code), no, or driver too old. For "
     "each problem it prints the fix: the index and the pip and uv commands that replace the "
     "installed build, from the database or PyTorch's declared lists (no network). Exit status "
     "0 when everything runs natively, 4 when something only runs through PTX JIT, 5 when "
     "nothing checked fails but something could not be checked (each named: a limit hit, a "
     "METADATA that cannot be read, a listed file that cannot be read or scanned) or when "
     "nothing could be checked at all (no installed distribution has GPU code: a CPU-only "
     "torch, or another environment than meant), 1 when "
     "something will fail or --verify's driver process did not finish, 6 when --verify found "
     "the driver disagreeing with the rules, 2 for "
     "a usage error (also when --python does not answer within 30 s): it can gate a CI job or a "
     "container's start.",
     "wheelarch doctor --python .venv/bin/python", doctor_options, cli_doctor},
    {"explain", "[TEXT... | -] [--driver V] [--python X.Y] [--platform P] [--json]",
     "Read a pasted error or warning and answer for the GPU and driver it names.",
     "TEXT is the error as you have it (operands, or standard input when there are none or '-'): "
     "torch's warnings (\"... with CUDA capability sm_61 is not compatible with the current "
     "PyTorch installation\", \"... which is of cuda capability 3.5. PyTorch no longer "
     "supports this GPU\", torch 2.11's capability table), \"no kernel image is available for "
     "execution on the device\", \"the provided PTX was compiled with an unsupported "
     "toolchain\", \"CUDA driver version is insufficient for CUDA runtime version\", \"Torch "
     "not compiled with CUDA enabled\", ROCm's \"invalid device function\" and "
     "HSA_OVERRIDE_GFX_VERSION, and nvidia-smi's header, table, -L and --query-gpu lines. It "
     "prints what it read (GPU, compute capability, driver, the installed build's arch list), "
     "what each message means, the installed build judged against the arch list the warning "
     "prints, then query's answer for that GPU and driver. Exit status as query's; 1 when the "
     "text names no GPU (it says what to paste), 2 when it holds nothing it knows.",
     "python -c 'import torch; torch.zeros(1).cuda()' 2>&1 | wheelarch explain", explain_options,
     cli_explain},
    {"variants", "[--gpu NAME... | --cc X.Y] [--driver V] [--json | --static]",
     "Print the wheel-variant properties (PEP 825) this machine's GPUs and driver support.",
     "One line per property, NAMESPACE :: FEATURE :: VALUE, as a variant provider reports them: "
     "nvidia :: sm_arch :: XY_real for SASS that runs natively on every NVIDIA GPU, XY_virtual "
     "for PTX they all compile, nvidia :: cuda_version_lower_bound for each CUDA the driver "
     "supports natively, amd :: gfx_arch and amd :: rocm_version. The GPUs are detected as by "
     "query (or --gpu/--cc, WHEELARCH_GPUS); the values match those of api/v1/variants/, so an "
     "installer plugin can be a thin wrapper. --static prints them as the static compatibility "
     "lists of the PEP 850 draft, the shape of api/v1/variants/static/<device>.json.",
     "wheelarch variants --json", variants_options, cli_variants},
    {"build", "[--cache DIR] [--out DIR] [--base-url URL] [--nightlies N]",
     "Render the database into a static website, a JSON feed and GPU-aware package indexes.",
     "Pages per GPU, release and wheel, the matrix, changes and an Atom feed, the methodology; "
     "api/v1/ (matrix.json, gpus.json, index-table.json, variants.json, schema.json, "
     "matrix.csv); simple/sm_XY/ package indexes listing only wheels with native code for X.Y: "
     "per version and wheel tag the one an installer should take, from the newest CUDA variant "
     "that has native code. Of the nightly versions, only the newest (--nightlies) are shown. "
     "The same database gives byte-identical output; the folder is built beside the old one and "
     "swapped in atomically, and a rebuild with nothing changed rewrites no file: DIR.stamp "
     "beside the folder remembers what it was built from (the database's state, the templates, "
     "the data, the base URL), and when that is unchanged the build stops at once. One build per "
     "output folder at a time (a lock on DIR.lock beside it; a second one waits); the output "
     "folder must not be, hold or lie inside the database folder.",
     "wheelarch build --base-url https://example.org/wheelarch", build_options, cli_build},
    {"update", "[--config FILE] [--cache DIR] [--out DIR] [--base-url URL] [OPTIONS]",
     "The main job: crawl the configured indexes, then build the site.",
     "Runs `crawl` and then `build` with the options they share. The site is built whatever the "
     "crawl managed: when an index is unreachable it is reported in one line and the site comes "
     "from what the database already holds (at least PyTorch's declared arch lists). Both steps "
     "are crash-safe: records are stored one by one, each in a transaction, and the site is "
     "swapped in "
     "whole, so an update killed at any point and run again loses nothing. Exit status 0 when "
     "everything went well, 3 when the crawl was incomplete but the site was built (a failed "
     "wheel or index page: a hiccup), 6 when no index answered in up to --outages-allowed runs "
     "in a row, 7 when none answered for more runs in a row than that (an outage; the site is "
     "still built in both; the count is kept in DIR/outages), 1 when the build failed (the "
     "previous site stays), 2 for bad arguments or configuration.",
     "wheelarch update --base-url https://example.org/wheelarch", update_options, cli_update},
    {"merge", "[--cache DIR] OTHER.db...",
     "Merge other databases (crawl shards) into the database.",
     "A union of the records, in one transaction: a wheel already in the database keeps its "
     "record, unless that one was inferred and the other database read the wheel. Inputs are "
     "untrusted and never written: each is opened read-only (a private copy when its -wal file "
     "holds changes), its schema must be exactly wheelarch's, no view or trigger of it runs, "
     "and it is checked whole (PRAGMA integrity_check, every record as a crawl checks it); one "
     "that fails is refused with one line saying why, and nothing of it is stored. Of an "
     "input's journal and failures only the wheels whose scan did not finish come along, to be "
     "scanned alone by the next crawl; its HTTP cache never does. When the database merged "
     "into cannot store (a full disk), everything is rolled back and the exit status is 1. "
     "Exit status 0 when every input was merged, 3 when some were refused, 1 when all were.",
     "wheelarch merge shard-0/wheelarch.db shard-1/wheelarch.db", merge_options, cli_merge},
    {"db", "(import DIR | export [-o FILE] | check) [--cache DIR]",
     "Move records into and out of the database, and check it.",
     "`import DIR` stores the records of a folder of JSON files, one per wheel (DIR/records/ "
     "of wheelarch 0.1's cache, or DIR itself): the one-time migration to the SQLite database. "
     "A file that cannot be read, parsed or checked is refused with one line; exit status 3 "
     "then. A folder with no record file, or one holding a wheelarch.db (for `merge`), is "
     "refused (exit 2) before any database is created. A large import (5,000 files or more, or a "
     "JSON lines file of 16 MiB or more) prints a line at each tenth. `export` writes every "
     "record as one JSON "
     "line, sorted by key, for diffs and grep. "
     "`check` upgrades an older database, runs SQLite's integrity check and prints the number "
     "of records. docs/database.md describes the tables.",
     "wheelarch db import old-cache/records", db_options, cli_db},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
