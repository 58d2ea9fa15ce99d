#!/usr/bin/env bash
# Benchmarks reported as ratios against a peer measured side by side in the same run.
#   server  — Tessera's loopback server (libmicrohttpd, 1 thread) vs nginx-light (1 worker)
#             under wrk on loopback: whole 1 MiB files and 64 KiB ranges. Interleaved runs,
#             median requests/s of REPS runs of DURATION seconds each.
#   parse   — the playlist parser vs Python m3u8, streamlink's parser and ffprobe
#             (Scripts/bench-parse.sh; REPS medians).
#   http    — the HTTP client vs URLSession (FoundationNetworking) and the curl command line:
#             20,000 small GETs at concurrency 1 and 32, and a 1 GiB download
#             (Scripts/bench-http.sh; REPS medians).
#   bounds  — memory and time bounds: planning 500k segments, fetching 1 GiB, hostile origins
#             (endless, stalled, trickling bodies, a dead origin); BEFORE=<binary> runs an older
#             tessera beside it (Scripts/bench-bounds.sh).
#   graph   — tessera graph (tree and --json) vs curl -Z fetching the same 251 playlists and
#             ffprobe opening the presentation (Scripts/bench-graph.sh; REPS medians).
#   vod     — tessera download vs ffmpeg, yt-dlp -N 8, streamlink (8 threads) and the curl -Z
#             ceiling on 200 × ~1 MB TS, clear and AES-128; decryption vs openssl speed; peak RSS
#             on a ≥ 2 GB stream; validation GB/s (Scripts/bench-vod.sh; REPS medians; BEFORE=<binary>
#             adds an older tessera side by side).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
command -v wrk >/dev/null || { echo "bench: installing wrk"; apt-get install -y -qq wrk >/dev/null; }
WHAT="${1:-server}"
REPS="${REPS:-3}"
DURATION="${DURATION:-5}"
case "$WHAT" in
  server) ;;
  parse) exec bash "$HERE/Scripts/bench-parse.sh" "$REPS" ;;
  http) exec bash "$HERE/Scripts/bench-http.sh" "$REPS" ;;
  vod) exec bash "$HERE/Scripts/bench-vod.sh" "$REPS" ;;
  bounds) exec bash "$HERE/Scripts/bench-bounds.sh" ;;
  graph) exec bash "$HERE/Scripts/bench-graph.sh" "$REPS" ;;
  *) echo "usage: $0 [server|parse|http|vod|bounds|graph]" >&2; exit 2 ;;
esac

swift build --package-path QualityGates/Bench -c release >/dev/null
SERVE="$(swift build --package-path QualityGates/Bench -c release --show-bin-path)/ServeDirectory"
WORK="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
mkdir -p "$WORK/root" "$WORK/nginx/logs" "$WORK/nginx/tmp"
head -c $((1 << 20)) /dev/urandom > "$WORK/root/file.bin"
NGINX_PORT=$((20000 + RANDOM % 20000)); OURS_PORT=$((NGINX_PORT + 1))
USER_LINE=""; [ "$(id -u)" = 0 ] && USER_LINE="user $(id -un) $(id -gn);"
cat > "$WORK/nginx/nginx.conf" <<CONF
$USER_LINE
worker_processes 1; daemon off; pid nginx.pid; error_log logs/error.log warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush off; tcp_nodelay on; keepalive_requests 1000000;
  client_body_temp_path tmp; proxy_temp_path tmp; fastcgi_temp_path tmp; uwsgi_temp_path tmp; scgi_temp_path tmp;
  server { listen 127.0.0.1:$NGINX_PORT; root $WORK/root; } }
CONF
(cd "$WORK/nginx" && exec nginx -p "$WORK/nginx/" -c nginx.conf) & PIDS+=($!)
"$SERVE" "$WORK/root" "$OURS_PORT" 1 >/dev/null & PIDS+=($!)
for port in $NGINX_PORT $OURS_PORT; do
  for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.05; done
done

rps() { # port, extra wrk args...
  local port="$1"; shift
  wrk -t1 -c16 -d"${DURATION}s" "$@" "http://127.0.0.1:$port/file.bin" | awk '/Requests\/sec/ {print $2}'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "bench server: $REPS × ${DURATION}s per load, wrk -t1 -c16, loopback, $(nproc) cores"
printf '%-14s %12s %12s %8s\n' load nginx tessera ratio
for load in whole range; do
  args=()
  [ "$load" = range ] && args=(-H "Range: bytes=65536-131071")
  n=(); t=()
  for _ in $(seq 1 "$REPS"); do
    n+=("$(rps $NGINX_PORT "${args[@]}")")
    t+=("$(rps $OURS_PORT "${args[@]}")")
  done
  nm=$(printf '%s\n' "${n[@]}" | median); tm=$(printf '%s\n' "${t[@]}" | median)
  printf '%-14s %12s %12s %8s\n' "$load" "$nm" "$tm" "$(awk -v a="$tm" -v b="$nm" 'BEGIN {printf "%.2f", a / b}')"
done
