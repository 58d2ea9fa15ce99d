#!/usr/bin/env bash
# Benchmarks reported as ratios against a peer measured side by side in the same run.
#   server  — `tessera serve` (libmicrohttpd, 1 thread) vs nginx-light (1 worker) serving one
#             package under wrk on loopback: whole 1 MiB segments and random 64 KiB ranges.
#             Interleaved runs, median requests/s of REPS runs of DURATION seconds each
#             (Scripts/bench-server.sh).
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
#   live    — tessera watch against the LL-HLS test origin in real time: part → snapshot p50/p95,
#             requests per part; on a plain origin beside streamlink and ffmpeg; RSS over a
#             40,000-segment EVENT playlist (Scripts/bench-live.sh; one run).
#   record  — tessera record vs ffmpeg and streamlink recording the peers' live origin for 30 s:
#             clean, one 503, a 4 s outage, an outage longer than the window (Scripts/bench-record.sh).
#   channels — tessera record --channels of 100 live channels (2 s TS at ~2 Mbit/s, nginx, playlists
#             advanced in real time) for 10 minutes: missed segments, verified packages, CPU, peak
#             RSS, segment-to-disk latency; then 20 ffmpeg and 20 streamlink processes on the same
#             channels (Scripts/bench-channels.sh; one run; GATE=1 CHANNEL_SECONDS=3600 is the soak gate).
#   mux     — tessera download -o movie.mp4 (a ladder's video and one of its two audio renditions,
#             muxed by us, progressive and --fragmented) vs ffmpeg -c copy, yt-dlp and the curl -Z fetch ceiling, TS and fMP4; disk
#             bytes written (Scripts/bench-mux.sh; REPS medians).
#   sigv4   — AWS Signature V4 signatures per second vs botocore's signer on the same requests
#             (Scripts/bench-sigv4.sh; REPS medians).
#   websocket — WebSocket echo round trips (32 B text, 1 MiB binary) vs the Python websockets
#             client against the same websockets echo server (Scripts/bench-websocket.sh; REPS medians).
#
# Guarded baselines: `bench.sh <row> --check` runs the row, then compares every `ratio <name>
# <value>` line it printed (ours against the peer beside it, higher is better) with
# QualityGates/Bench/baselines/<machine-kind>.json and fails when one fell more than the
# tolerance (15 %, or TOLERANCE=0.2) below it in two runs (the better of the two counts);
# `--update` runs the row BASELINE_RUNS times (3) and writes the median of each ratio, the date
# and the commit as the row's baseline (QualityGates/Bench/baseline.py; docs/QUALITY-GATES.md).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
GUARD=""
ROW_ARGS=()
for argument in "$@"; do
  case "$argument" in
    --check|--update) GUARD="${argument#--}" ;;
    *) ROW_ARGS+=("$argument") ;;
  esac
done
if [ -n "$GUARD" ]; then
  row="${ROW_ARGS[0]:-server}"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  run_row() { # log file: runs the row once, tee'd
    set +e
    bash "$HERE/Scripts/bench.sh" "$row" | tee "$1"
    local status=${PIPESTATUS[0]}
    set -e
    [ "$status" = 0 ] || { echo "bench $GUARD $row: FAILED — the row itself failed (status $status)"; exit 1; }
  }
  baseline() { python3 "$HERE/QualityGates/Bench/baseline.py" "$@" ${TOLERANCE:+--tolerance "$TOLERANCE"}; }
  if [ "$GUARD" = update ]; then   # the baseline is the median of BASELINE_RUNS runs (default 3)
    for i in $(seq 1 "${BASELINE_RUNS:-3}"); do run_row "$work/run$i.log"; done
    exec python3 "$HERE/QualityGates/Bench/baseline.py" update "$row" "$work"/run*.log
  fi
  # A regression must show twice: a ratio below the tolerance is measured again, and the better
  # of the two runs counts (this shared machine has slow spells of several seconds).
  run_row "$work/run1.log"
  baseline check "$row" "$work/run1.log" && exit 0
  echo "bench check $row: measuring again before calling it a regression"
  run_row "$work/run2.log"
  exec python3 "$HERE/QualityGates/Bench/baseline.py" check "$row" "$work/run1.log" "$work/run2.log" ${TOLERANCE:+--tolerance "$TOLERANCE"}
fi
set -- "${ROW_ARGS[@]}"
bash Scripts/bootstrap.sh
command -v wrk >/dev/null || { echo "bench: installing wrk"; apt-get install -y -qq wrk >/dev/null; }
WHAT="${1:-server}"
ASKED_REPS="${REPS:-}"
REPS="${REPS:-3}"
DURATION="${DURATION:-3}"
case "$WHAT" in
  server) exec bash "$HERE/Scripts/bench-server.sh" "${ASKED_REPS:-11}" "$DURATION" ;;   # short runs, many: the loopback box is noisy
  parse) exec bash "$HERE/Scripts/bench-parse.sh" "$REPS" ;;
  http) exec bash "$HERE/Scripts/bench-http.sh" "$REPS" ;;
  vod) exec bash "$HERE/Scripts/bench-vod.sh" "$REPS" ;;
  bounds) exec bash "$HERE/Scripts/bench-bounds.sh" ;;
  graph) exec bash "$HERE/Scripts/bench-graph.sh" "$REPS" ;;
  package) exec bash "$HERE/Scripts/bench-package.sh" "$REPS" ;;
  mux) exec bash "$HERE/Scripts/bench-mux.sh" "$REPS" ;;
  live) exec bash "$HERE/Scripts/bench-live.sh" ;;   # one real-time run (2 + 2 + 1 minutes)
  record) exec bash "$HERE/Scripts/bench-record.sh" ;;   # real-time runs (several minutes)
  channels) exec bash "$HERE/Scripts/bench-channels.sh" ;;   # real time: 10 minutes, then the peers
  sigv4) exec bash "$HERE/Scripts/bench-sigv4.sh" "${ASKED_REPS:-9}" ;;   # short paired runs, many
  websocket) exec bash "$HERE/Scripts/bench-websocket.sh" "$REPS" ;;
  *) echo "usage: $0 [server|parse|http|vod|bounds|graph|package|mux|live|record|channels|sigv4|websocket] [--check|--update]" >&2; exit 2 ;;
esac
