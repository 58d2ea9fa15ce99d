#!/usr/bin/env bash
# The quality gates, each one named and runnable alone (docs/QUALITY-GATES.md says what each
# proves and how long it takes):
#   run_hls_quality_gates.sh [--fast|--full] [--only <gate>[,<gate>…]] [--list]
#                            [--require-players] [--allow-missing-players] [--require-external]
#   --fast (the default; Scripts/test.sh runs it): the fast gates. --full: every gate.
#   --only: just these gates, in the order given (whatever the mode).
#   --list: the gates, which mode runs each, and what each proves; runs nothing.
# Each gate prints exactly one result line — "gate <name>: passed (<s> s)",
# "gate <name>: passed with N checks skipped (<s> s)" (it passed, but printed N "SKIPPED:" lines:
# checks a caller's ALLOW_SKIPPED=1 or --allow-missing-players let it skip),
# "gate <name>: FAILED — <reason> (<s> s)" or "gate <name>: NOT RUN — <reason>" — and the script
# ends with "gates: N passed, M failed, K not run, J with checks skipped" (a gate with checks
# skipped is not counted as passed). It exits non-zero when a gate failed, or when a required
# gate did not run. A missing player fails the players gate (players are required,
# as --require-players says) unless --allow-missing-players, which makes it NOT RUN instead.
set -uo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"

ALL_GATES=(imports pins mutations isolation races contract demo players scaling fuzz sanitizers reproducible external bench channels)
FAST_GATES=(imports pins mutations scaling isolation races contract demo players)

describe() {
  case "$1" in
    imports) echo "Package.swift declares exactly what each target imports, and docs/ARCHITECTURE.md maps every file of TesseraHLS and TesseraLive" ;;
    pins) echo "every fixture's size and SHA-256 against Fixtures/manifest.json, nothing unpinned; a tampered copy must fail" ;;
    mutations) echo "every fixture (playlists, TS, fMP4, WebVTT; encrypted ones decrypted first) mutated 500/100 ways each: accepted or a typed refusal, no crash, no hang, invariants kept; a planted crash and hang must fail" ;;
    isolation) echo "live recordings and VOD downloads at once in one process on one HTTP client: each its own segments and keys, failures and a cancellation alone (IsolationGateTests, LiveRecordingTests/isolation)" ;;
    races) echo "a download, a package and a live recording cancelled (a download and a package also cut off) or out of space at every event boundary, checkpoints and the commit included: one outcome, no event after it, all or nothing at the destination, a rerun gives the same bytes; shutdown answers parked requests (TerminalRaceTests, RecordingRaceTests, ParkedRequestTests)" ;;
    scaling) echo "100k/10k time <= 12 for every playlist shape, the graph (segments, variants), package planning and the live delta merge; a planted quadratic must fail" ;;
    contract) echo "the CLI contract: every command's output, exit codes and errors against nginx-light (QualityGates/cli-contract.sh); record against ffmpeg's live muxer killed and restarted in place, and killed for good; every playlist command against a playlist trickling at 2 B/s (QualityGates/live-faults.sh)" ;;
    demo) echo "tessera demo: AES-128 downloads from a loopback origin equal to the clear reference by SHA-256 and decoded by ffmpeg; a package verified, served and played by ffmpeg and Chromium; a live recording through an outage, with gaps, verified, served and played by ffmpeg and Chromium; one MP4 with separate audio and subtitles played by ffmpeg and Chromium (the subtitles shown)" ;;
    players) echo "ffmpeg, GStreamer and headless Chromium each play served packages (TS, fMP4) and recordings (one with gaps) to the end, each decoding as many video frames as the source (QualityGates/players.sh)" ;;
    fuzz) echo "libFuzzer on every parser, FUZZ_SECONDS each (default 300)" ;;
    sanitizers) echo "the test suite under ThreadSanitizer and AddressSanitizer" ;;
    reproducible) echo "Scripts/make-fixtures.sh rebuilds Fixtures/ byte-identical with this machine's ffmpeg" ;;
    external) echo "a validator from outside the house when installed: PyAV's libavformat decodes every media playlist of the fixtures, its frame counts equal to ffprobe's for every stream; NOT RUN when absent" ;;
    channels) echo "100 live channels recorded in one process for CHANNEL_SECONDS (default 3600) from nginx, playlists advanced in real time, ten minutes kept a channel (--rolling 600): no missed segment (evicted ones count as recorded), every package verifies, peak RSS <= 64 MiB + 1 MiB a channel, memory floor (resident less segment bodies, each minute after the freed heap goes back) slope <= 1 MiB/h after 10 minutes of warm-up (Scripts/bench-channels.sh with GATE=1)" ;;
    bench) echo "the quick benchmark rows (sigv4; BENCH_ROWS='parse package …' or BENCH_ROWS=all for every row with a baseline) against QualityGates/Bench/baselines/<machine-kind>.json within 15 %, naming the rows with a baseline it does not check; a planted 30 % slowdown must fail" ;;
    *) return 1 ;;
  esac
}

usage() {
  echo "usage: $0 [--fast|--full] [--only <gate>[,<gate>...]] [--list] [--require-players] [--allow-missing-players] [--require-external]" >&2
  exit 2
}

MODE="--fast"
ONLY=""
LIST=0
REQUIRE_EXTERNAL=0
export ALLOW_MISSING_PLAYERS="${ALLOW_MISSING_PLAYERS:-0}"
while [ $# -gt 0 ]; do
  case "$1" in
    --fast|--full) MODE="$1" ;;
    --only) [ $# -ge 2 ] || usage; ONLY="$2"; shift ;;
    --only=*) ONLY="${1#--only=}" ;;
    --list) LIST=1 ;;
    --require-players) ALLOW_MISSING_PLAYERS=0 ;;
    --allow-missing-players) ALLOW_MISSING_PLAYERS=1 ;;
    --require-external) REQUIRE_EXTERNAL=1 ;;
    *) usage ;;
  esac
  shift
done

if [ "$LIST" = 1 ]; then
  for gate in "${ALL_GATES[@]}"; do
    if [[ " ${FAST_GATES[*]} " == *" $gate "* ]]; then mode="fast+full"; else mode="full"; fi
    printf '%-13s %-10s %s\n' "$gate" "$mode" "$(describe "$gate")"
  done
  exit 0
fi

if [ -n "$ONLY" ]; then
  IFS=',' read -r -a SELECTED <<< "$ONLY"
  for gate in "${SELECTED[@]}"; do
    describe "$gate" > /dev/null || { echo "run_hls_quality_gates: no gate named '$gate' (--list names them)" >&2; exit 2; }
  done
elif [ "$MODE" = "--full" ]; then
  SELECTED=("${ALL_GATES[@]}")
else
  SELECTED=("${FAST_GATES[@]}")
fi

# --require-external runs the external gate whatever the mode (and fails when it cannot run).
if [ "$REQUIRE_EXTERNAL" = 1 ] && [[ " ${SELECTED[*]} " != *" external "* ]]; then SELECTED+=(external); fi

bash Scripts/bootstrap.sh || { echo "run_hls_quality_gates: Scripts/bootstrap.sh failed"; exit 1; }
REASON_FILE="$(mktemp)"
BIN=""
BIN_ERROR=""

# The in-process gates' runner (Tests/GateRunner), built beside the release tessera.
GATES_BIN=""
gates_binary() {
  if [ -z "$GATES_BIN" ]; then
    GATES_BIN="$(bash Scripts/release-tessera.sh --product tessera-gates)" || { GATES_BIN=""; reason "the release build of tessera-gates failed"; return 1; }
  fi
}

# A gate says why it failed or did not run with `reason`; it returns 0 (passed), 1 (failed) or
# 3 (did not run).
reason() { printf '%s' "$*" > "$REASON_FILE"; }

# The release binary the contract, demo and players gates run, built once.
tessera_binary() {
  if [ -z "$BIN" ] && [ -z "$BIN_ERROR" ]; then
    BIN="$(bash Scripts/release-tessera.sh)" || { BIN=""; BIN_ERROR="the release build of tessera failed"; }
  fi
  [ -n "$BIN" ] || { reason "$BIN_ERROR"; return 1; }
}

# The last line of a gate script that matches `pattern`, as the reason it failed.
summary_of() { grep -E "$2" "$1" | tail -1; }

gate_imports() {
  python3 QualityGates/Imports/check-imports.py || { reason "a target's imports and Package.swift disagree (above)"; return 1; }
  python3 Scripts/make-architecture-map.py --check || { reason "docs/ARCHITECTURE.md's file map is stale (above)"; return 1; }
}

gate_pins() {
  local out; out="$(python3 QualityGates/Pins/check-pins.py)"
  local status=$?
  echo "$out"
  [ "$status" = 0 ] || { reason "$(tail -1 <<< "$out")"; return 1; }
  python3 QualityGates/Pins/check-pins.py --self-test || { reason "the pin check let a tampered copy pass"; return 1; }
}

gate_mutations() {
  gates_binary || return 1
  local log; log="$(mktemp)"
  SWIFT_BACKTRACE=enable=no "$GATES_BIN" mutations 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local line; line="$(grep -E '^mutations: (FAILED|[0-9])' "$log" | tail -1)"
  rm -f "$log"
  [ "$status" = 0 ] || { reason "${line:-tessera-gates mutations died with status $status and said nothing}"; return 1; }
  # The gate's own proof: a reader that crashes, and one that hangs, must each fail the run by name.
  local out
  out="$(SWIFT_BACKTRACE=enable=no "$GATES_BIN" mutations --plant crash 2>/dev/null)"
  grep -q '^mutations: FAILED — crashed on .*#0' <<< "$out" || { reason "a planted crash was not reported as one: $out"; return 1; }
  out="$("$GATES_BIN" mutations --plant hang --bound 1 2>/dev/null)"
  grep -q '^mutations: FAILED — .*#0 .*(a hang)' <<< "$out" || { reason "a planted hang was not reported as one: $out"; return 1; }
  echo "mutations: the planted crash and the planted hang each failed the run, naming their case"
}

# Runs the unit suites matching `filter` (at least `least` tests must run) from the build
# Scripts/test.sh made: the same flags, so its build is reused rather than redone.
run_suites() { # filter least
  swift build --build-tests -Xswiftc -warnings-as-errors > /dev/null || { reason "the test build failed"; return 1; }
  local tests; tests="$(swift build --show-bin-path)/TesseraPackageTests.xctest"
  local log; log="$(mktemp)"
  "$tests" --testing-library swift-testing --filter "$1" < /dev/null 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local count; count="$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*passed.*/\1/p' "$log" | tail -1)"
  local skipped; skipped="$(grep -c ' skipped' "$log" || true)"
  [ "$status" = 0 ] || { rm -f "$log"; reason "a test failed (above)"; return 1; }
  [ "${skipped:-0}" = 0 ] || { rm -f "$log"; reason "$skipped of its tests were skipped (the full-volume sweeps mount a tmpfs: run as root)"; return 1; }
  rm -f "$log"
  [ "${count:-0}" -ge "$2" ] || { reason "${count:-0} of the $2 tests ran (a renamed test?)"; return 1; }
}

gate_isolation() { run_suites 'IsolationGateTests|LiveRecordingTests/isolation\(' 2; }

gate_races() { run_suites 'TerminalRaceTests|RecordingRaceTests|ParkedRequestTests' 10; }

gate_scaling() {
  gates_binary || return 1
  local log; log="$(mktemp)"
  "$GATES_BIN" scaling 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local line; line="$(grep -E '^scaling: ' "$log" | tail -1)"
  rm -f "$log"
  [ "$status" = 0 ] || { reason "${line:-tessera-gates scaling failed with status $status}"; return 1; }
  local out
  out="$("$GATES_BIN" scaling --plant-quadratic --only parse-plain,live-merge)" && { reason "a planted quadratic loop passed: $out"; return 1; }
  echo "scaling: the planted quadratic failed: $(tail -1 <<< "$out")"
}

gate_contract() {
  tessera_binary || return 1
  local log faults; log="$(mktemp)"; faults="$(mktemp)"
  # The real-source faults run beside the contract (they are mostly waiting on real time).
  bash QualityGates/live-faults.sh "$BIN" > "$faults" 2>&1 &
  local faulting=$!
  bash QualityGates/cli-contract.sh "$BIN" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local faults_status=0; wait "$faulting" || faults_status=$?
  cat "$faults"
  [ "$status" = 0 ] || reason "$(summary_of "$log" '^cli-contract: ')"
  [ "$faults_status" = 0 ] || reason "$(summary_of "$faults" '^live-faults: ')"
  rm -f "$log" "$faults"
  [ "$status" = 0 ] && [ "$faults_status" = 0 ] || return 1
}

gate_demo() {
  tessera_binary || return 1
  swift build --product tessera-live-origin > /dev/null || { reason "the test-support live origin does not build"; return 1; }
  local flags=(--live-origin "$(swift build --show-bin-path)/tessera-live-origin")
  [ "$ALLOW_MISSING_PLAYERS" = 1 ] && flags+=(--allow-missing-players)
  "$BIN" demo "${flags[@]}" || { reason "tessera demo failed (above)"; return 1; }
}

gate_players() {
  tessera_binary || return 1
  local log; log="$(mktemp)"
  bash QualityGates/players.sh "$BIN" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local line; line="$(summary_of "$log" '^players: [0-9]+ passed')"
  rm -f "$log"
  if [ "$status" != 0 ]; then reason "${line:-QualityGates/players.sh failed}"; return 1; fi
  local skipped; skipped="$(sed -n 's/.* \([0-9]*\) skipped$/\1/p' <<< "$line")"
  if [ "${skipped:-0}" != 0 ]; then reason "$skipped player checks could not run: a player is not installed ($line)"; return 3; fi
}

gate_fuzz() {
  bash QualityGates/fuzz.sh "${FUZZ_SECONDS:-300}" || { reason "a fuzzer found a crash, a leak or a hang, or did not run (above)"; return 1; }
}

gate_sanitizers() {
  # ThreadSanitizer slows the suite several times over. All of it at once on two cores starves
  # a few timing-bound tests past the loopback origins' 30 s idle timeout (a paused 4 MiB
  # transfer, a parked preload-hint request); one test module at a time keeps a normal run's load.
  swift build --build-tests --sanitize=thread --scratch-path .build/tsan || { reason "the ThreadSanitizer build failed"; return 1; }
  local tests; tests="$(swift build --sanitize=thread --scratch-path .build/tsan --show-bin-path)/TesseraPackageTests.xctest"
  local module total=0
  for module in $(grep -o 'testTarget(name: "[A-Za-z]*"' Package.swift | cut -d'"' -f2); do
    local log; log="$(mktemp)"
    "$tests" --testing-library swift-testing --filter "^$module\\." < /dev/null 2>&1 | tee "$log"
    local status=${PIPESTATUS[0]}
    # The sanitizer's own runtime can fail a check in a child it follows through clone() (a test
    # spawning a server while many threads run): not a finding. Such a run — and only one with no
    # ThreadSanitizer report in it — is run once more, said here; twice is a failure.
    if [ "$status" != 0 ] && grep -q 'ThreadSanitizer: CHECK failed' "$log" && ! grep -q 'WARNING: ThreadSanitizer:' "$log"; then
      echo "sanitizers: the ThreadSanitizer runtime itself failed in $module ($(grep -m1 -o 'ThreadSanitizer: CHECK failed: [^ ]*' "$log")), with no report; running $module once more"
      "$tests" --testing-library swift-testing --filter "^$module\\." < /dev/null 2>&1 | tee "$log"
      status=${PIPESTATUS[0]}
    fi
    local count; count="$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*passed.*/\1/p' "$log" | tail -1)"
    rm -f "$log"
    [ "$status" = 0 ] || { reason "$module fails under ThreadSanitizer (exit $status, above)"; return 1; }
    [ "${count:-0}" -gt 0 ] || { reason "no test of $module ran under ThreadSanitizer"; return 1; }
    total=$((total + count))
  done
  echo "sanitizers: $total tests clean under ThreadSanitizer, module by module"
  LSAN_OPTIONS="suppressions=$HERE/QualityGates/lsan.supp" swift test --sanitize=address --scratch-path .build/asan \
    || { reason "the suite fails under AddressSanitizer"; return 1; }
}

gate_reproducible() {
  command -v ffmpeg > /dev/null || { reason "ffmpeg is not installed"; return 1; }
  bash Scripts/make-fixtures.sh --check || { reason "this machine's ffmpeg makes other bytes than Fixtures/ (media.md F1-F3)"; return 1; }
}

# Optional validators are looked for, never installed: TESSERA_EXTERNAL_PYTHON, the venv
# ~/.cache/tessera-external (python3 -m venv it; pip install av), then python3.
gate_external() {
  local python=""
  for candidate in "${TESSERA_EXTERNAL_PYTHON:-}" "${XDG_CACHE_HOME:-$HOME/.cache}/tessera-external/bin/python" python3; do
    [ -n "$candidate" ] && "$candidate" -c "import av" 2>/dev/null && { python="$candidate"; break; }
  done
  if [ -z "$python" ]; then
    reason "no external validator is installed (PyAV: python3 -m venv ~/.cache/tessera-external && ~/.cache/tessera-external/bin/pip install av)"
    return 3
  fi
  "$python" QualityGates/External/pyav-check.py Fixtures || { reason "PyAV disagrees with a fixture (above)"; return 1; }
}

# The rows this gate checks: quick ones, unless BENCH_ROWS names others ("all": every row with a
# baseline on this machine kind — an hour or more). Those not checked (minutes each, some with
# peers on the network) are named as not checked, never passed over in silence.
if [ "${BENCH_ROWS:-sigv4}" = all ]; then
  read -r -a BENCH_GATE_ROWS <<< "$(python3 QualityGates/Bench/baseline.py rows | tr '\n' ' ')"
else
  read -r -a BENCH_GATE_ROWS <<< "${BENCH_ROWS:-sigv4}"
fi
gate_channels() {
  # Ten minutes kept a channel: an hour of 100 channels whole is ~100 GB.
  GATE=1 PEERS=0 ROLLING="${ROLLING:-600}" CHANNEL_SECONDS="${CHANNEL_SECONDS:-3600}" bash Scripts/bench-channels.sh \
    || { reason "a channel missed a segment, a package did not verify, or memory grew (above)"; return 1; }
}

gate_bench() {
  local row
  for row in "${BENCH_GATE_ROWS[@]}"; do
    bash Scripts/bench.sh "$row" --check || { reason "a $row figure regressed past the tolerance (above)"; return 1; }
  done
  # The gate's own proof: the signer made 30 % slower must fail the same check.
  if TESSERA_BENCH_PLANT_SLOWDOWN=0.3 bash Scripts/bench.sh sigv4 --check > /dev/null 2>&1; then
    reason "a planted 30 % slowdown of the signer passed the check"; return 1
  fi
  echo "bench: the planted 30 % slowdown failed the check"
  local unchecked=()
  for row in $(python3 QualityGates/Bench/baseline.py rows); do
    [[ " ${BENCH_GATE_ROWS[*]} " == *" $row "* ]] || unchecked+=("$row")
  done
  [ "${#unchecked[@]}" -eq 0 ] || echo "bench: not checked by this gate (each takes minutes; Scripts/bench.sh <row> --check checks one): ${unchecked[*]}"
}

passed=0; failed=0; not_run=0; partial=0
RESULTS=()
GATE_LOG="$(mktemp)"
trap 'rm -f "$REASON_FILE" "$GATE_LOG"' EXIT
for gate in "${SELECTED[@]}"; do
  echo "== $gate: $(describe "$gate")"
  : > "$REASON_FILE"
  started=$(date +%s%N)
  # Shown as it runs and kept, to count the checks it skipped. (The gate runs in this shell, not
  # a pipeline's subshell: the release binaries it builds are reused by the next gate.)
  "gate_$gate" > >(tee "$GATE_LOG") 2>&1
  status=$?
  wait $! 2>/dev/null
  took="$(awk -v ns=$(( $(date +%s%N) - started )) 'BEGIN { printf "%.1f", ns / 1e9 }')"
  why="$(cat "$REASON_FILE")"
  skipped_checks="$(grep -c 'SKIPPED:' "$GATE_LOG" || true)"
  if [ "$status" = 0 ] && [ "${skipped_checks:-0}" -gt 0 ]; then status=4; fi
  case "$status" in
    0) line="gate $gate: passed ($took s)"; passed=$((passed + 1)) ;;
    4) line="gate $gate: passed with $skipped_checks check$([ "$skipped_checks" = 1 ] || echo s) skipped ($took s)"; partial=$((partial + 1)) ;;
    3) line="gate $gate: NOT RUN — ${why:-no reason given}"
       if [ "$gate" = external ] && [ "$REQUIRE_EXTERNAL" = 1 ]; then   # asked for, so not running it fails
         line="$line (required by --require-external)"; failed=$((failed + 1))
       else
         not_run=$((not_run + 1))
       fi ;;
    *) line="gate $gate: FAILED — ${why:-see above} ($took s)"; failed=$((failed + 1)) ;;
  esac
  echo "$line"
  RESULTS+=("$line")
done
echo "results:"
for line in "${RESULTS[@]}"; do echo "  $line"; done
echo "gates: $passed passed, $failed failed, $not_run not run, $partial with checks skipped"
[ "$failed" = 0 ]
