#!/usr/bin/env bash
# The test command: installs what is missing, builds everything with warnings as errors, runs
# the whole test suite, then the fast quality gates. Safe to run on a fresh machine.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
start=$(date +%s)
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
bash Scripts/run_hls_quality_gates.sh --fast
echo "test.sh: build, tests and fast gates passed in $(( $(date +%s) - start )) s"
