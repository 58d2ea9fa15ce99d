#!/usr/bin/env bash
# The CLI against real sources that fail as real ones do, on nginx-light (loopback): ffmpeg's own
# live HLS muxer in real time (Scripts/live-encoder.sh: video and a separate audio rendition, a
# window of four 1 s segments, PROGRAM-DATE-TIME) that is
#   restart   killed (kill -9) and started again in place — media sequence from 0, the same
#             segment names: `tessera record` goes on recording the new source behind an
#             EXT-X-DISCONTINUITY, the time lost declared as a gap, and says so (exit 0);
#   end       the same with --on-restart end: what came before committed, exit 0, end
#             source-restarted;
#   dead      killed for good, its last playlist still served: the recording ends at the outage
#             limit (4 s) counted from when the next segment was due, commits, says the source
#             stopped producing media on its last line and exits 3;
# and a playlist served at 2 bytes a second (nginx limit_rate): inspect, download, graph, package,
# watch and record each end, with their defaults, in well under 100 s with one error line (exit 1)
# and nothing at the destination.
# The scenarios run at once (each its own encoder); each prints `  ok …` or `  FAIL …`.
#   live-faults.sh <tessera binary>     ends with "live-faults: N passed, M failed"
set -euo pipefail
BIN="$1"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
PIDS=()
# TERM, not KILL: nginx's master stops its workers only when asked (killed, they would live on
# and hold the caller's output open).
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
. "$HERE/Scripts/nginx-origin.sh"
. "$HERE/Scripts/live-encoder.sh"
mkdir -p "$WORK/www"
start_origin "$WORK" "$WORK/www" trickle; PIDS+=("$NGINX_PID")
ORIGIN="http://127.0.0.1:$PORT"

# Each scenario writes its verdicts to $WORK/<name>.result, a line each ("ok …" or "FAIL …").
verdict() { echo "$2" >> "$WORK/$1.result"; }

# A recording of an encoder that is killed after `kill_after` seconds and, unless `restart_after`
# is empty, started again in place that many seconds later. Sets rc, writes out/err.
record_through() { # name, kill_after, restart_after, record args…
  local name="$1" kill_after="$2" restart_after="$3"; shift 3
  local folder="$WORK/www/$name"
  start_live_encoder "$folder" 60 || { verdict "$name" "FAIL $name: the live encoder did not start"; return 1; }
  local encoder=$ENCODER_PID
  "$BIN" record "$ORIGIN/$name/master.m3u8" -o "$WORK/$name.rec" --from start "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" &
  local recorder=$!
  sleep "$kill_after"; kill -9 "$encoder"; wait "$encoder" 2>/dev/null || true
  date +%s.%N > "$WORK/$name.killed"
  if [ -n "$restart_after" ]; then
    sleep "$restart_after"
    start_live_encoder "$folder" 60 || { verdict "$name" "FAIL $name: the live encoder did not start again"; kill "$recorder"; return 1; }
    echo "$ENCODER_PID" > "$WORK/$name.encoder"
  fi
  rc=0; wait "$recorder" || rc=$?
  date +%s.%N > "$WORK/$name.ended"
  [ -s "$WORK/$name.encoder" ] && kill -9 "$(cat "$WORK/$name.encoder")" 2>/dev/null || true
  return 0
}

scenario_restart() {
  record_through restart 5 2 --duration 14 --json || return 0
  local dir="$WORK/restart.rec"
  if [ "$rc" = 0 ] && python3 - "$WORK/restart.out" "$dir" <<'PY'
import json, sys
summary = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert summary["restarts"] >= 1 and summary["end"] == "duration", summary
lost = [g for g in summary["gapList"] if g["reason"] == "lost while the source restarted"]
assert lost and all(g["estimated"] for g in lost), summary["gapList"]
for track in ("video", "audio-1"):
    lines = open(f"{sys.argv[2]}/{track}/index.m3u8").read().splitlines()
    at = lines.index("#EXT-X-DISCONTINUITY")
    assert "#EXT-X-GAP" in lines[:at], track                  # the time lost, before the new source
    assert sum(1 for l in lines[at:] if l.endswith(".ts")) >= 2, track   # the new source recorded
PY
  then
    if grep -q "^source restarted: video: .* recorded on behind a discontinuity, .* lost declared as [0-9]* gaps\?$" "$WORK/restart.err" \
       && "$BIN" verify-package "$dir" > /dev/null 2>&1; then
      verdict restart "ok   restart: the encoder killed and started again in place (names reused, numbers from 0): recorded on behind a discontinuity, $(grep -m1 -o '[0-9.]* s lost declared as [0-9]* gaps\?' "$WORK/restart.err"), the restart in the report, verified"
    else verdict restart "FAIL restart: $(grep -m2 -E 'source restarted|error' "$WORK/restart.err")"; fi
  else verdict restart "FAIL restart: exit $rc, $(tail -c 300 "$WORK/restart.out") $(grep -m3 -E 'source|error|ended' "$WORK/restart.err")"; fi
}

scenario_end() {
  record_through end 5 2 --duration 20 --on-restart end --json || return 0
  if [ "$rc" = 0 ] && python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); assert d["end"] == "source-restarted" and "the source restarted" in d["reason"], d' "$WORK/end.out" \
     && ! grep -q "#EXT-X-DISCONTINUITY" "$WORK/end.rec/video/index.m3u8" && "$BIN" verify-package "$WORK/end.rec" > /dev/null 2>&1; then
    verdict end "ok   end: --on-restart end commits what came before the restart and exits 0 ($(grep -m1 -o 'ended at a restart.*' "$WORK/end.err" | cut -c1-90))"
  else verdict end "FAIL end: exit $rc, $(tail -c 300 "$WORK/end.out") $(grep -m3 -E 'source|error|ended' "$WORK/end.err")"; fi
}

scenario_dead() {
  record_through dead 5 "" --outage-limit 4 || return 0
  local took; took="$(awk -v a="$(cat "$WORK/dead.killed")" -v b="$(cat "$WORK/dead.ended")" 'BEGIN { printf "%.1f", b - a }')"
  local last; last="$(tail -1 "$WORK/dead.out")"
  if [ "$rc" = 3 ] && [[ "$last" == recorded:*"(ended early: the source stopped producing media)" ]] \
     && awk -v t="$took" 'BEGIN { exit !(t < 12) }' && grep -q "^no new segment for " "$WORK/dead.err" \
     && "$BIN" verify-package "$WORK/dead.rec" > /dev/null 2>&1; then
    verdict dead "ok   dead: its last playlist still served, the recording ended $took s after the kill (limit 4 s past due), committed and verified, exit 3: $last"
  else verdict dead "FAIL dead: exit $rc after $took s, last line: $last; $(grep -m2 -E 'no new|error|ended' "$WORK/dead.err")"; fi
}

# Each command on a playlist that trickles: one error line, exit 1, well under 100 s.
scenario_trickle() {
  mkdir -p "$WORK/www/trickle" "$WORK/trickle.out"
  printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400d"\nlive.m3u8\n' > "$WORK/www/trickle/master.m3u8"
  printf '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2,\nseg0.ts\n#EXTINF:2,\nseg1.ts\n' > "$WORK/www/trickle/live.m3u8"
  local url="$ORIGIN/trickle/master.m3u8" commands=(inspect download graph package watch record) pids=() command
  for command in "${commands[@]}"; do
    local args=("$command" "$url")
    case "$command" in download|package|record) args+=(-o "$WORK/trickle.out/$command") ;; esac
    ( start=$(date +%s.%N); rc=0; timeout 150 "$BIN" "${args[@]}" > /dev/null 2> "$WORK/trickle.$command.err" || rc=$?
      echo "$rc $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" > "$WORK/trickle.$command.rc" ) &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  for command in "${commands[@]}"; do
    local rc took lines last
    read -r rc took < "$WORK/trickle.$command.rc"
    lines=$(grep -c '^tessera: error: ' "$WORK/trickle.$command.err" || true)
    last="$(tail -1 "$WORK/trickle.$command.err")"
    if [ "$rc" = 1 ] && [ "$lines" = 1 ] && [[ "$last" == "tessera: error: "* ]] && awk -v t="$took" 'BEGIN { exit !(t < 100) }' \
       && [ -z "$(ls -A "$WORK/trickle.out")" ]; then
      verdict trickle "ok   trickle: $command of a playlist at 2 B/s ends in $took s, exit 1: ${last:0:150}"
    else verdict trickle "FAIL trickle: $command: exit $rc after $took s, $lines error lines: ${last:0:200}"; fi
  done
}

echo "live-faults: real sources at $ORIGIN (ffmpeg's live HLS muxer; a playlist trickling at 2 B/s)"
SCENARIOS=(restart end dead trickle)
RUNNING=()
# (A scenario's own shell noise — the encoders it kills — goes to a file; its verdicts are what count.)
for name in "${SCENARIOS[@]}"; do "scenario_$name" 2>> "$WORK/$name.shell" & RUNNING+=($!); done
for pid in "${RUNNING[@]}"; do wait "$pid" || true; done
pass=0; fail=0
for name in "${SCENARIOS[@]}"; do
  if [ ! -s "$WORK/$name.result" ]; then echo "  FAIL $name: no verdict"; fail=$((fail + 1)); continue; fi
  while IFS= read -r line; do
    echo "  $line"
    case "$line" in ok*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
  done < "$WORK/$name.result"
done
echo "live-faults: $pass passed, $fail failed"
[ "$fail" = 0 ]
