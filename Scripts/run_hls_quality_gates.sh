#!/usr/bin/env bash
# Quality gates beyond unit tests. --fast (the default, run by Scripts/test.sh): Package.swift
# matches the imports, the fixtures still match their pins, and the end-to-end demo (loopback origin, libcurl, AES-128, TS check,
# atomic commit, SHA-256 against the clear reference, ffmpeg decode), the CLI contract
# against nginx, and real players (ffmpeg, GStreamer, headless Chromium) on served packages. --full adds libFuzzer on every parser (FUZZ_SECONDS each, default 300), the
# test suite under ThreadSanitizer and AddressSanitizer, and the fixture reproducibility check.
# A check that cannot run says SKIPPED and fails the gate; --allow-missing-players lets a
# missing player be skipped instead.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
MODE="--fast"
DEMO_FLAGS=()
for argument in "$@"; do
  case "$argument" in
    --fast|--full) MODE="$argument" ;;
    --allow-missing-players) export ALLOW_MISSING_PLAYERS=1; DEMO_FLAGS+=(--allow-missing-players) ;;
    *) echo "usage: $0 [--fast|--full] [--allow-missing-players]" >&2; exit 2 ;;
  esac
done
echo "gate: Package.swift declares exactly what each target imports"
python3 QualityGates/Imports/check-imports.py
BIN="$(bash Scripts/release-tessera.sh)"
# The test-support live origin the demo records from (debug: a test tool, not shipped).
swift build --product tessera-live-origin > /dev/null
DEMO_FLAGS+=(--live-origin "$(swift build --show-bin-path)/tessera-live-origin")
echo "gate: end-to-end demo"
"$BIN" demo "${DEMO_FLAGS[@]}"
bash QualityGates/cli-contract.sh "$BIN"
echo "gate: real players (ffmpeg, GStreamer, headless Chromium) on packages served by tessera serve"
bash QualityGates/players.sh "$BIN"
if [ "$MODE" = "--full" ]; then
  echo "gate: fuzzing every parser (${FUZZ_SECONDS:-300} s each)"
  bash QualityGates/fuzz.sh "${FUZZ_SECONDS:-300}"
  echo "gate: the test suite under ThreadSanitizer and AddressSanitizer"
  swift test --sanitize=thread --scratch-path .build/tsan
  LSAN_OPTIONS="suppressions=$HERE/QualityGates/lsan.supp" swift test --sanitize=address --scratch-path .build/asan
  echo "gate: fixtures reproduce with this machine's ffmpeg"
  bash Scripts/make-fixtures.sh --check
fi
echo "gates: passed"
