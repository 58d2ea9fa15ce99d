#!/usr/bin/env bash
# Live reload against the LL-HLS test origin (tessera-live-origin) in real time, one run each:
#   ll      tessera watch on a Low-Latency origin (target duration 4 s, part target 1 s, a part
#           published each second, delta updates) for LIVE_SECONDS (default 120): the time from
#           a part's publication to the `watch` line (snapshot) that holds it, p50/p95; playlist
#           requests per new part; CPU and peak RSS of watch.
#   plain   the same origin without Low-Latency HLS (whole 4 s TS segments): tessera watch,
#           streamlink and ffmpeg side by side (one origin each, started together): the time from
#           a segment's publication to the first playlist answer that lists it, p50/p95;
#           playlist requests per new segment; for the peers the time to their first GET of it;
#           CPU and peak RSS.
#   day     memory over a day: an EVENT playlist of 40,000 2 s segments, growing, followed with
#           delta updates for LIVE_DAY_SECONDS (default 60): watch's RSS after tune-in, at the
#           end and at peak, against one parsed playlist (`tessera inspect` of the 40,000-segment
#           playlist less that of a 6-segment one).
# BEFORE=<an older tessera binary> adds it beside tessera in the ll and plain runs (row `before`).
# Usage: bench-live.sh   (run by Scripts/bench.sh live)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
RUN="${LIVE_SECONDS:-120}"
DAY="${LIVE_DAY_SECONDS:-60}"
TESSERA="$(bash Scripts/release-tessera.sh)"
if ! log="$(swift build -c release --product tessera-live-origin --static-swift-stdlib 2>&1)"; then echo "$log" >&2; exit 1; fi
ORIGIN="$(swift build -c release --static-swift-stdlib --show-bin-path)/tessera-live-origin"
. "$HERE/Scripts/bench-peers.sh"
WORK="$( [ -d /dev/shm ] && mktemp -d -p /dev/shm || mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

# start_origin NAME ARGS…: starts an origin logging to NAME.jsonl; URL is its playlist.
start_origin() {
  local name="$1"; shift
  "$ORIGIN" --log "$WORK/$name.jsonl" --max-seconds $((RUN + DAY + 120)) "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" &
  PIDS+=($!)
  for _ in $(seq 1 100); do [ -s "$WORK/$name.out" ] && break; sleep 0.05; done
  URL="$(awk '{print $3; exit}' "$WORK/$name.out")"
  [ -n "$URL" ] || { echo "bench live: origin $name did not start: $(cat "$WORK/$name.err")" >&2; exit 1; }
}
# client NAME CMD…: runs CMD in the background under /usr/bin/time (NAME.time: wall user sys
# maxrss); each stdout line is stamped with the wall-clock time it arrived (µs: watch's own
# `time` has milliseconds, finer than a loopback part delivery needs).
client() {
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/$name.time" timeout --kill-after=5 $((RUN + 60)) "$@" 2> "$WORK/$name.stderr" \
    | python3 -u -c 'import sys, time
for line in sys.stdin: sys.stdout.write("%.6f %s" % (time.time(), line))' > "$WORK/$name.stdout" &
  CLIENTS+=($!)
}

echo "bench live: $(nproc) cores, $RUN s runs, release tessera, origin tessera-live-origin on loopback"
# 8 TS segments of 4 s (360p, 25 fps, 1 Mbit/s) for the plain origins, cycled.
mkdir -p "$WORK/media"
ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=640x360:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000 \
  -t 32 -c:v libx264 -preset ultrafast -g 100 -keyint_min 100 -sc_threshold 0 -b:v 1000k -c:a aac -b:a 96k \
  -f hls -hls_time 4 -hls_list_size 0 -hls_playlist_type vod -hls_segment_filename "$WORK/media/seg_%03d.ts" "$WORK/media/index.m3u8"

CLIENTS=()
start_origin ll --parts-per-segment 4 --window 6 --can-skip-until 12 --duration "$RUN"
client ll-tessera "$TESSERA" watch "$URL" --json
if [ -n "${BEFORE:-}" ]; then   # an older tessera on an origin of its own, side by side
  start_origin ll-before --parts-per-segment 4 --window 6 --can-skip-until 12 --duration "$RUN"
  client ll-before "$BEFORE" watch "$URL" --json
fi
wait "${CLIENTS[@]}" || true

CLIENTS=()
PLAIN=(--no-low-latency --no-skip --parts-per-segment 4 --window 6 --media "$WORK/media" --extension ts --duration "$RUN")
ORIGIN_T=$(date +%s%N)
start_origin plain-tessera "${PLAIN[@]}"; U_T="$URL"
start_origin plain-streamlink "${PLAIN[@]}"; U_S="$URL"
start_origin plain-ffmpeg "${PLAIN[@]}"; U_F="$URL"
CLIENT_T=$(date +%s%N)
client plain-tessera "$TESSERA" watch "$U_T" --json
client plain-streamlink "$VENV/bin/streamlink" --no-config --loglevel info --progress no --force -o "$WORK/streamlink.ts" "hls://$U_S" best
client plain-ffmpeg ffmpeg -nostdin -hide_banner -loglevel warning -y -i "$U_F" -c copy "$WORK/ffmpeg.ts"
if [ -n "${BEFORE:-}" ]; then
  # A polling client's listing latency is the phase of its polls against the origin's
  # publications, set by how long after its origin it starts: the older build starts as long
  # after its own origin as tessera did.
  ORIGIN_B=$(date +%s%N)
  start_origin plain-before "${PLAIN[@]}"
  sleep "$(awk -v gap=$((CLIENT_T - ORIGIN_T)) -v spent=$(( $(date +%s%N) - ORIGIN_B )) 'BEGIN { w = (gap - spent) / 1e9; print (w > 0 ? w : 0) }')"
  client plain-before "$BEFORE" watch "$URL" --json
fi
wait "${CLIENTS[@]}" || true

# A day: 40,000 segments of 2 s already out (80,000 one-second parts), growing.
start_origin day --event --parts-per-segment 2 --published 80000 --can-skip-until 12 --duration "$DAY"
curl -s "$URL" -o "$WORK/day.m3u8"
printf '#EXTM3U\n#EXT-X-TARGETDURATION:2\n%s#EXT-X-ENDLIST\n' "$(for i in 0 1 2 3 4 5; do printf '#EXTINF:2.0,\ns%d.mp4\n' "$i"; done)" > "$WORK/small.m3u8"
/usr/bin/time -f "%M" -o "$WORK/inspect-day.rss" "$TESSERA" inspect "$WORK/day.m3u8" > /dev/null
/usr/bin/time -f "%M" -o "$WORK/inspect-small.rss" "$TESSERA" inspect "$WORK/small.m3u8" > /dev/null
"$TESSERA" watch "$URL" --json > "$WORK/day-tessera.stdout" 2> "$WORK/day-tessera.stderr" &
WATCH=$!
: > "$WORK/day-rss.txt"
while kill -0 "$WATCH" 2>/dev/null; do
  awk -v t="$(date +%s.%N)" -v lines="$(wc -l < "$WORK/day-tessera.stdout")" '/^VmRSS/ {print t, lines, $2}' "/proc/$WATCH/status" >> "$WORK/day-rss.txt" 2>/dev/null || true
  sleep 0.5
done
wait "$WATCH" || true

python3 "$HERE/Scripts/bench-live-report.py" "$WORK"
