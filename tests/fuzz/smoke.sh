#!/usr/bin/env bash
# The short libFuzzer run of every target (`make test-fuzz`); run.sh does
# the work.  usage: tests/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET]
exec "$(dirname "$0")/run.sh" "$1" "${2:-20}"
