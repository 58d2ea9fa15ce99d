#!/usr/bin/env bash
# Fuzzes every parser with libFuzzer for SECONDS each (default 60), after replaying the corpus
# and the saved crash inputs. New crash inputs land in QualityGates/Fuzz/crashes/<target>/ and
# fail the gate; fixed ones stay there and are replayed by `swift test` (FuzzReplayTests).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_EACH="${1:-60}"
FUZZ="$HERE/QualityGates/Fuzz"
export SWIFT_BACKTRACE=enable=no    # else Swift's backtracer eats the trap and libFuzzer writes nothing
# -enable-testing: FuzzWebSocket reaches the internal WebSocket frame reader with @testable import.
swift build --package-path "$FUZZ" -c release --sanitize=fuzzer -Xswiftc -enable-testing
BIN="$(swift build --package-path "$FUZZ" -c release --sanitize=fuzzer -Xswiftc -enable-testing --show-bin-path)"
status=0
for target in FuzzPlaylistParser FuzzTransportStream FuzzMovieMux FuzzContentRange FuzzEventStreams FuzzWebSocket FuzzHeaderValues FuzzMP4Validator FuzzPresentation FuzzPackage FuzzChannelList; do
  corpus="$FUZZ/corpus/$target"
  crashes="$FUZZ/crashes/$target"
  work="$(mktemp -d)"
  mkdir -p "$crashes"    # libFuzzer refuses to start without its artifact folder
  before="$(find "$crashes" -type f | wc -l)"
  cp "$corpus"/* "$work"/ 2>/dev/null || true
  echo "fuzz: $target for ${SECONDS_EACH}s"
  if ! "$BIN/$target" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$crashes/" "$work" > "$work.log" 2>&1; then
    if [ "$(find "$crashes" -type f | wc -l)" -gt "$before" ]; then
      echo "fuzz: $target FOUND A CRASH (inputs in $crashes); log: $work.log"
    else
      echo "fuzz: $target FAILED without writing an input (it did not run as asked); log: $work.log"
    fi
    tail -20 "$work.log"
    status=1
  else
    echo "fuzz: $target clean ($(grep -o 'Done [0-9]* runs' "$work.log" | tail -1))"
  fi
  rm -rf "$work"
done
exit $status
