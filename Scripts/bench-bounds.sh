#!/usr/bin/env bash
# Bounds under load and hostility, for tessera and (with BEFORE=<an older tessera binary>) the
# same commands side by side in one run:
#   plan    — `download --dry-run` of a 500,000-segment VOD playlist from nginx: peak RSS and
#             its ratio to the playlist's size, wall time; then its dry runs as a muxed `.mp4`
#             and as a `package` (a resource, a file name and a playlist line a segment);
#   fetch   — `fetch` of 1 GiB from nginx to /dev/shm: peak RSS;
#   endless — `download --parallel 8` of 8 endless chunked segments: peak RSS, how it ends;
#   stall   — `download --parallel 16` of 16 segments announcing SIZE (255 MiB) that stall 1 KiB
#             short: peak RSS, time to fail;
#   trickle — one 10 MB segment at 2 B/s, `--retries 0`: time to fail (before: capped at TIMEOUT s);
#   dead    — an origin that accepts and never answers: time to fail with the defaults, and with
#             `--timeout 2 --retries 1`.
# Every run is bounded by `timeout` (TIMEOUT s, default 150).   bench-bounds.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
source "$HERE/Scripts/nginx-origin.sh"
TESSERA="$(bash Scripts/release-tessera.sh)"
TIMEOUT="${TIMEOUT:-150}"
SIZE="${SIZE:-267386880}"
WORK="$( [ -d /dev/shm ] && mktemp -d -p /dev/shm || mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
mkdir -p "$WORK/www" "$WORK/out"
python3 - "$WORK/www/big.m3u8" <<'PY'
import sys
lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
for i in range(500000):
    lines += ["#EXTINF:4,", f"{i}.ts"]
open(sys.argv[1], "w").write("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n")
PY
head -c $((1 << 30)) /dev/zero > "$WORK/www/1g.bin"
start_origin "$WORK" "$WORK/www"; PIDS+=("$NGINX_PID")
HOSTILE_PORT=$((PORT + 7))
python3 "$HERE/QualityGates/Bench/peers/hostile_origin.py" "$HOSTILE_PORT" 16 "$SIZE" & PIDS+=($!)
sleep 0.3
PLAYLIST_BYTES=$(stat -c %s "$WORK/www/big.m3u8")

# run <label> <binary> <args…>: prints "label  rc  wall s  peak RSS MB  last stderr line"
run() {
  local label="$1" bin="$2"; shift 2
  rm -rf "$WORK/out"; mkdir -p "$WORK/out"
  local start end rc
  start=$(date +%s.%N)
  set +e
  /usr/bin/time -f "%M" -o "$WORK/rss" timeout "$TIMEOUT" "$bin" "$@" > /dev/null 2> "$WORK/err"; rc=$?
  set -e
  end=$(date +%s.%N)
  local rss; rss=$(tail -1 "$WORK/rss")
  printf '%-38s rc %-3s %7.1f s %8.1f MB  %s\n' "$label" "$rc" "$(awk "BEGIN { print $end - $start }")" "$(awk "BEGIN { print $rss / 1024 }")" \
    "$(grep -v '^retry' "$WORK/err" | tail -1 | cut -c1-110)"
  echo "$rss" > "$WORK/last_rss"
  awk "BEGIN { print $end - $start }" > "$WORK/last_wall"
}
# bound <name> [time]: the `bound` lines bench.sh --check compares with the baseline (lower is
# better; no peer runs beside these): the last run's peak RSS in MiB, and with `time` its wall
# seconds (the hostile origins', set by timeouts).
BOUNDS=()
bound() {
  BOUNDS+=("$(awk -v n="$1" -v r="$(cat "$WORK/last_rss")" 'BEGIN { printf "bound bounds.%s.peak-rss-mib %.1f", n, r / 1024 }')")
  if [ "${2:-}" = time ]; then BOUNDS+=("bound bounds.$1.seconds $(cat "$WORK/last_wall")"); fi
}
BINARIES=("tessera:$TESSERA")
[ -n "${BEFORE:-}" ] && BINARIES+=("before:$BEFORE")
echo "bench bounds: playlist of 500,000 segments = $PLAYLIST_BYTES bytes"
for entry in "${BINARIES[@]}"; do
  name="${entry%%:*}"; bin="${entry#*:}"
  run "$name plan 500k (dry run)" "$bin" download "http://127.0.0.1:$PORT/big.m3u8" -o "$WORK/out/x.ts" --dry-run
  [ "$name" = tessera ] && bound plan-500k
  echo "    RSS / playlist bytes: $(awk "BEGIN { printf \"%.1f\", $(cat "$WORK/last_rss") * 1024 / $PLAYLIST_BYTES }")x"
  # The same playlist planned as a muxed MP4 and as an offline package (a file a segment):
  # the plans that hold a resource, a local name and a local playlist line for each segment.
  run "$name plan 500k as .mp4 (dry run)" "$bin" download "http://127.0.0.1:$PORT/big.m3u8" -o "$WORK/out/x.mp4" --dry-run
  [ "$name" = tessera ] && bound plan-500k-mp4
  run "$name plan 500k package (dry run)" "$bin" package "http://127.0.0.1:$PORT/big.m3u8" -o "$WORK/out/pkg" --dry-run
  [ "$name" = tessera ] && bound plan-500k-package
  run "$name fetch 1 GiB" "$bin" fetch "http://127.0.0.1:$PORT/1g.bin" -o "$WORK/out/1g.bin" --allow-http
  [ "$name" = tessera ] && bound fetch-1gib
  run "$name endless x8 --parallel 8" "$bin" download "http://127.0.0.1:$HOSTILE_PORT/endless/index.m3u8" -o "$WORK/out/e.ts" --parallel 8
  [ "$name" = tessera ] && bound endless
  run "$name stall 16x255MiB --parallel 16" "$bin" download "http://127.0.0.1:$HOSTILE_PORT/stall/index.m3u8" -o "$WORK/out/s.ts" --parallel 16
  [ "$name" = tessera ] && bound stall time
  run "$name trickle 2 B/s (no retries)" "$bin" download "http://127.0.0.1:$HOSTILE_PORT/trickle/index.m3u8" -o "$WORK/out/t.ts" $( [ "$name" = tessera ] && echo --retries 0 )
  [ "$name" = tessera ] && bound trickle time
  run "$name dead origin (defaults)" "$bin" download "http://127.0.0.1:$HOSTILE_PORT/dead/index.m3u8" -o "$WORK/out/d.ts"
  [ "$name" = tessera ] && bound dead-defaults time
  if [ "$name" = tessera ]; then
    run "$name dead origin --timeout 2 --retries 1" "$bin" download "http://127.0.0.1:$HOSTILE_PORT/dead/index.m3u8" -o "$WORK/out/d.ts" --timeout 2 --retries 1
    bound dead-timeout-2 time
  fi
done
printf '%s\n' "${BOUNDS[@]}"
