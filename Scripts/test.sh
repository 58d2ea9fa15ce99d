#!/usr/bin/env bash
# The test command: installs what is missing, builds everything with warnings as errors, runs
# the whole test suite, then the fast quality gates. Safe to run on a fresh machine.
# Ends with one line: "test.sh: N passed, M failed" (unit tests plus passed gates; skipped tests
# and gates that did not run are listed as SKIPPED and never counted as passed).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
start=$(date +%s)
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
swift build --build-tests -Xswiftc -warnings-as-errors
set +e
swift test --skip-build 2>&1 | tee "$LOG"
tests_status=${PIPESTATUS[0]}
set -e
unit=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*/\1/p' "$LOG" | tail -1)
# A skipped test did not run: it is said, and not counted as passed.
skipped=$(grep -c '^➜ Test .* skipped' "$LOG" || true)
grep '^➜ Test .* skipped' "$LOG" | sed 's/^➜ /SKIPPED: /' || true
unit=$(( ${unit:-0} - skipped ))
if [ "$tests_status" -ne 0 ]; then
  echo "test.sh: swift test failed"
  exit "$tests_status"
fi
set +e
bash Scripts/run_hls_quality_gates.sh --fast 2>&1 | tee "$LOG"
gates_status=${PIPESTATUS[0]}
set -e
# The gates' own summary: "gates: N passed, M failed, K not run, J with checks skipped" (each
# gate one line above it). A gate that passed with checks skipped counts as skipped, not passed.
summary=$(grep -E '^gates: [0-9]+ passed, [0-9]+ failed, [0-9]+ not run, [0-9]+ with checks skipped$' "$LOG" | tail -1)
gate_passed=$(sed -n 's/^gates: \([0-9]*\) passed.*/\1/p' <<< "$summary")
gate_failed=$(sed -n 's/^gates: [0-9]* passed, \([0-9]*\) failed.*/\1/p' <<< "$summary")
gate_not_run=$(sed -n 's/.* failed, \([0-9]*\) not run,.*/\1/p' <<< "$summary")
gate_partial=$(sed -n 's/.* not run, \([0-9]*\) with checks skipped$/\1/p' <<< "$summary")
grep -E '^gate [a-z]+: (NOT RUN|passed with [0-9]+ checks? skipped)' "$LOG" | sed 's/^/SKIPPED: /' || true
echo "test.sh: finished in $(( $(date +%s) - start )) s"
if [ -z "$summary" ]; then
  echo "test.sh: ${unit:-0} passed, 1 failed (the quality gates printed no summary)"
  exit 1
fi
if [ "$gates_status" -ne 0 ]; then
  echo "test.sh: $(( ${unit:-0} + gate_passed )) passed, $(( gate_failed > 0 ? gate_failed : 1 )) failed"
  exit "$gates_status"
fi
skipped=$(( skipped + gate_not_run + gate_partial ))
echo "test.sh: $(( ${unit:-0} + gate_passed )) passed, 0 failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped")"
