#!/usr/bin/env bash
# `tessera serve` against nginx-light (1 worker, sendfile, tcp_nopush off) serving the same
# package folder, under wrk on loopback with 16 connections: whole 1 MiB segments (each request
# one of the package's 32 segments, in turn) and random 64 KiB ranges of them (random segment,
# random offset). Both servers are pinned to CPU 0 and wrk to CPU 1 (unpinned, where the
# scheduler puts them moves either by ±5 % from run to run). Interleaved runs; median
# requests/s of REPS runs of DURATION seconds.
#   bench-server.sh [REPS] [DURATION]      (run by Scripts/bench.sh server)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
REPS="${1:-11}"; DURATION="${2:-3}"
TESSERA="$(bash Scripts/release-tessera.sh)"
WORK="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
. "$HERE/Scripts/nginx-origin.sh"
# A presentation of 32 segments of 1 MiB (valid MPEG-TS: Scripts/synthetic-ts.py), packaged by tessera from an origin: the package is what
# both servers serve.
mkdir -p "$WORK/www/v"
{ printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n'
  for i in $(seq -w 0 31); do python3 "$HERE/Scripts/synthetic-ts.py" $((1 << 20)) "$WORK/www/v/seg_$i.ts"; printf '#EXTINF:4.0,\nseg_%s.ts\n' "$i"; done
  printf '#EXT-X-ENDLIST\n'; } > "$WORK/www/v/index.m3u8"
printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2097152,CODECS="avc1.64001f"\nv/index.m3u8\n' > "$WORK/www/master.m3u8"
start_origin "$WORK/origin" "$WORK/www"; PIDS+=("$NGINX_PID")
"$TESSERA" package "http://127.0.0.1:$PORT/master.m3u8" -o "$WORK/pkg" > /dev/null 2>&1
kill "$NGINX_PID"; wait "$NGINX_PID" 2>/dev/null || true
start_origin "$WORK/nginx" "$WORK/pkg"; PIDS+=("$NGINX_PID"); NGINX_PORT=$PORT
if [ "${THREADS:-1}" != 1 ]; then   # as many nginx workers as server threads
  sed -i "s/worker_processes 1;/worker_processes ${THREADS};/" "$WORK/nginx/nginx/nginx.conf"
  kill -HUP "$NGINX_PID"; sleep 0.5
fi
taskset -c 0 "$TESSERA" serve "$WORK/pkg" --threads "${THREADS:-1}" > "$WORK/serve.out" 2>&1 & PIDS+=($!)
for pid in $(pgrep -P "$NGINX_PID") "$NGINX_PID"; do taskset -pc 0 "$pid" > /dev/null; done
for _ in $(seq 1 100); do [ -s "$WORK/serve.out" ] && break; sleep 0.05; done
OURS_PORT="$(sed -n 's#^serving http://127\.0\.0\.1:\([0-9]*\)/master\.m3u8$#\1#p' "$WORK/serve.out")"
[ -n "$OURS_PORT" ] || { echo "bench server: tessera serve did not start: $(cat "$WORK/serve.out")" >&2; exit 1; }
cat > "$WORK/whole.lua" <<'LUA'
local n = 0
request = function()
  n = (n + 1) % 32
  return wrk.format("GET", string.format("/video/seg_%02d.ts", n))
end
LUA
cat > "$WORK/range.lua" <<'LUA'
math.randomseed(7)
request = function()
  local offset = math.random(0, 1048576 - 65536)
  return wrk.format("GET", string.format("/video/seg_%02d.ts", math.random(0, 31)),
                    { ["Range"] = "bytes=" .. offset .. "-" .. (offset + 65535) })
end
LUA
rps() { # port, script
  taskset -c 1 wrk -t1 -c16 -d"${DURATION}s" -s "$2" "http://127.0.0.1:$1/" | awk '/Requests\/sec/ {print $2}'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Both answer what they should before they are timed.
for port in "$NGINX_PORT" "$OURS_PORT"; do
  [ "$(curl -s -r 100-199 "http://127.0.0.1:$port/video/seg_05.ts" | cmp - <(dd if="$WORK/pkg/video/seg_05.ts" bs=1 skip=100 count=100 status=none) && echo same)" = same ] \
    || { echo "bench server: port $port does not answer ranges exactly" >&2; exit 1; }
done
echo "bench server: tessera serve vs nginx-light on one package (32 × 1 MiB segments), $REPS × ${DURATION}s per load, wrk -t1 -c16, loopback, $(nproc) cores"
printf '%-22s %12s %14s %8s\n' load nginx "tessera serve" ratio
RATIOS=()
for load in whole range; do
  n=(); t=()
  for _ in $(seq 1 "$REPS"); do
    n+=("$(rps "$NGINX_PORT" "$WORK/$load.lua")")
    t+=("$(rps "$OURS_PORT" "$WORK/$load.lua")")
  done
  nm=$(printf '%s\n' "${n[@]}" | median); tm=$(printf '%s\n' "${t[@]}" | median)
  label=$([ "$load" = whole ] && echo "whole 1 MiB segments" || echo "random 64 KiB ranges")
  printf '%-22s %12s %14s %8s\n' "$label" "$nm" "$tm" "$(awk -v a="$tm" -v b="$nm" 'BEGIN {printf "%.2f", a / b}')"
  RATIOS+=("$(awk -v l="$load" -v a="$tm" -v b="$nm" 'BEGIN {printf "ratio server.%s-vs-nginx %.4f", l, a / b}')")
done
# Under abuse, each server alone on its CPU: random 64 KiB ranges (wrk -c16) with 1,000 slowloris
# clients holding connections (a request head a byte a second, reconnecting when cut), against
# the same load clean; and 200 requests one after another on new connections while 300 idle
# connections are held (the slowest answer must stay under 100 ms).
abuse() { # port, label
  local port="$1" clean loaded latency
  clean="$(rps "$port" "$WORK/range.lua")"
  taskset -c 1 python3 "$HERE/Scripts/server-abuse.py" slowloris "$port" 1000 $((DURATION + 12)) > "$WORK/slow.out" 2>&1 &
  local holder=$!
  for _ in $(seq 1 200); do grep -q '^ready' "$WORK/slow.out" 2>/dev/null && break; sleep 0.05; done
  loaded="$(rps "$port" "$WORK/range.lua")"
  wait "$holder" || true
  taskset -c 1 python3 "$HERE/Scripts/server-abuse.py" idle "$port" 300 20 > "$WORK/idle.out" 2>&1 &
  holder=$!
  for _ in $(seq 1 200); do grep -q '^ready' "$WORK/idle.out" 2>/dev/null && break; sleep 0.05; done
  local timing; timing="$(taskset -c 1 python3 "$HERE/Scripts/server-abuse.py" latency "$port" /master.m3u8 200)"
  latency="$(awk '{print $2}' <<< "$timing")"; local slow; slow="$(awk '{print $6}' <<< "$timing")"
  kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true
  printf '%-14s clean %10s req/s   with 1,000 slowloris %10s req/s (%s)   max latency with 300 idle %s ms\n' "$2" "${clean:-0}" "${loaded:-0}" \
    "$(awk -v a="${loaded:-0}" -v b="${clean:-1}" 'BEGIN {printf "%.2f", a / b}')" "${latency:-?}"
  ABUSE_RATIO="$(awk -v a="${loaded:-0}" -v b="${clean:-1}" 'BEGIN {printf "%.4f", a / b}')"; ABUSE_SLOW="${slow:-200}"
}
if [ "${ABUSE:-1}" = 1 ]; then
  echo "bench server: under abuse (random 64 KiB ranges, wrk -t1 -c16, ${DURATION}s)"
  abuse "$NGINX_PORT" "nginx-light"
  abuse "$OURS_PORT" "tessera serve"
  # The bound: requests of the 200 that took 100 ms or more (the goal is none).
  RATIOS+=("ratio server.slowloris1000-vs-clean $ABUSE_RATIO" "bound server.idle300-over-100ms $ABUSE_SLOW")
fi
printf '%s\n' "${RATIOS[@]}"   # the lines bench.sh --check compares with the baseline
