#!/usr/bin/env bash
# Quality gates beyond unit tests. --fast (the default, run by Scripts/test.sh): the fixtures
# still match their pins, and the end-to-end demo (loopback origin, libcurl, AES-128, TS check,
# atomic commit, SHA-256 against the clear reference, ffmpeg decode). Longer gates (fuzzing,
# soak) will run behind --full.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
MODE="${1:---fast}"
case "$MODE" in
  --fast|--full) ;;
  *) echo "usage: $0 [--fast|--full]" >&2; exit 2 ;;
esac
swift build -c release --product tessera >/dev/null
BIN="$(swift build -c release --show-bin-path)/tessera"
echo "gate: end-to-end demo"
"$BIN" demo
bash QualityGates/cli-contract.sh "$BIN"
echo "gates: passed"
