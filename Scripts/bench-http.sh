#!/usr/bin/env bash
# The HTTP client, side by side in one run with Foundation's URLSession (FoundationNetworking,
# what a Swift user on Linux would otherwise pick) and the curl command line, against nginx-light
# (1 worker) on loopback:
#   (a) N small GETs (1 KiB) at concurrency 1 and 32: requests/s and CPU µs per request;
#   (b) one 1 GiB download to a file on /dev/shm: MB/s and peak RSS — `tessera` written by the
#       transfer as it arrives (`writing: .inline`, as `tessera fetch -o`), `tessera-beside` with
#       the library's default (a piece at a time by the reading task); each run beside its rep's
#       curl run, and the ratio lines the median of the pairs' ratios.
# Tessera goes through the whole client (HTTPClient: endpoint → pipeline → libcurl), body read
# and size-checked per request — as `tessera` with its workers on the global executor, and as
# `tessera-loop` with them on `client.executor` (the engine's thread: no thread crossed per
# request). Runs are interleaved (rep-major); medians of REPS.
#   bench-http.sh [REPS]        (run by Scripts/bench.sh http; N=20000 by default)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
REPS="${1:-3}"
N="${N:-20000}"
BIG_MB="${BIG_MB:-1024}"
rm -f QualityGates/Bench/.build/release.yaml QualityGates/Bench/.build/build.db   # stale plans after root changes
swift build --package-path QualityGates/Bench -c release --product HTTPClientBench >/dev/null
swift build --package-path QualityGates/Bench -c release --product URLSessionBench >/dev/null
BIN="$(swift build --package-path QualityGates/Bench -c release --show-bin-path)"
WORK="$(mktemp -d)"
OUT_DIR="$( [ -d /dev/shm ] && mktemp -d -p /dev/shm || mktemp -d)"
NGINX_PID=""
cleanup() { [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK" "$OUT_DIR"; }
trap cleanup EXIT
mkdir -p "$WORK/root" "$WORK/nginx/logs" "$WORK/nginx/tmp"
head -c 1024 /dev/urandom > "$WORK/root/small.bin"
truncate -s "${BIG_MB}M" "$WORK/root/big.bin"
cat "$WORK/root/big.bin" > /dev/null   # page cache warm before the first timed reader
source "$HERE/Scripts/nginx-origin.sh"
start_origin "$WORK" "$WORK/root"
SMALL="http://127.0.0.1:$PORT/small.bin"
BIG="http://127.0.0.1:$PORT/big.bin"
for _ in $(seq 1 "$N"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$SMALL"; done > "$WORK/curl.cfg"

RESULTS="$WORK/results"
: > "$RESULTS"
run() { # label, then the command; appends "label wall user sys maxrss_kb"
  local label="$1"; shift
  /usr/bin/time -f "$label %e %U %S %M" -a -o "$RESULTS" timeout 600 "$@" > "$WORK/last.out" 2>&1 ||
    { echo "bench-http: $label failed: $(tail -3 "$WORK/last.out")" >&2; exit 1; }
}
echo "bench http: $REPS reps, N=$N GETs of 1 KiB, ${BIG_MB} MiB download, nginx-light on loopback, $(nproc) cores" >&2
for rep in $(seq 1 "$REPS"); do
  echo "  rep $rep" >&2
  for c in 1 32; do
    run "gets$c tessera" "$BIN/HTTPClientBench" gets "$SMALL" "$N" "$c"
    run "gets$c tessera-loop" "$BIN/HTTPClientBench" loop-gets "$SMALL" "$N" "$c"
    run "gets$c urlsession" "$BIN/URLSessionBench" gets "$SMALL" "$N" "$c"
    if [ "$c" = 1 ]; then run "gets$c curl" curl -s -K "$WORK/curl.cfg"
    else run "gets$c curl" curl -s -Z --parallel-max "$c" -K "$WORK/curl.cfg"; fi
  done
  # Each tessera download right beside its rep's curl run: the ratio is taken pair by pair.
  for client in tessera curl tessera-beside urlsession; do
    rm -f "$OUT_DIR/big.out"
    if [ "$client" = curl ]; then run "download $client" curl -s -o "$OUT_DIR/big.out" "$BIG"
    elif [ "$client" = tessera ]; then run "download $client" "$BIN/HTTPClientBench" download "$BIG" "$OUT_DIR/big.out"
    elif [ "$client" = tessera-beside ]; then run "download $client" "$BIN/HTTPClientBench" download-beside "$BIG" "$OUT_DIR/big.out"
    else run "download $client" "$BIN/URLSessionBench" download "$BIG" "$OUT_DIR/big.out"; fi
    [ "$(stat -c %s "$OUT_DIR/big.out")" = $((BIG_MB << 20)) ] || { echo "bench-http: $client wrote a short file" >&2; exit 1; }
  done
  rm -f "$OUT_DIR/big.out"
done
[ -n "${VERBOSE:-}" ] && cat "$RESULTS" >&2
python3 - "$RESULTS" "$N" "$BIG_MB" <<'PY'
import sys, statistics
from collections import defaultdict
rows = defaultdict(list)
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 6 or parts[0].startswith("Command"): continue
    rows[(parts[0], parts[1])].append(tuple(float(x) for x in parts[2:6]))
n, mb = int(sys.argv[2]), int(sys.argv[3])
med = lambda xs: statistics.median(xs)
ratios = []   # the lines bench.sh --check compares with the baseline, printed last
print(f"{'load':<10} {'client':<13} {'req/s':>9} {'CPU µs/req':>11} {'peak RSS':>9}  vs URLSession  vs curl")
for load in ("gets1", "gets32"):
    base = med([n / r[0] for r in rows[(load, "urlsession")]])
    curl = med([n / r[0] for r in rows[(load, "curl")]])
    for client in ("tessera", "tessera-loop", "urlsession", "curl"):
        rs = rows[(load, client)]
        rps = med([n / r[0] for r in rs]); cpu = med([(r[1] + r[2]) / n * 1e6 for r in rs]); rss = med([r[3] for r in rs]) / 1024
        print(f"{load:<10} {client:<13} {rps:>9.0f} {cpu:>11.1f} {rss:>7.1f}MB  {rps / base:>11.2f}x  {rps / curl:>6.2f}x")
        if client.startswith("tessera"): ratios.append(f"ratio http.{load}.{client}-vs-curl {rps / curl:.4f}")
base = med([mb * 1.048576 / r[0] for r in rows[("download", "curl")]])
print(f"{'load':<10} {'client':<13} {'MB/s':>9} {'CPU s':>11} {'peak RSS':>9}  vs curl  paired")
curls = [r[0] for r in rows[("download", "curl")]]
for client in ("tessera", "tessera-beside", "urlsession", "curl"):
    rs = rows[("download", client)]
    mbs = med([mb * 1.048576 / r[0] for r in rs]); cpu = med([r[1] + r[2] for r in rs]); rss = med([r[3] for r in rs]) / 1024
    # Rep by rep against the curl run beside it (this host's slow spells last seconds: a pair
    # mostly shares one), the median of those ratios: the line --check compares.
    paired = med([c / r[0] for c, r in zip(curls, rs)])
    print(f"{'download':<10} {client:<13} {mbs:>9.0f} {cpu:>11.2f} {rss:>7.1f}MB  {mbs / base:>5.2f}x  {paired:>5.2f}x")
    if client.startswith("tessera"): ratios.append(f"ratio http.download.{client}-vs-curl {paired:.4f}")
print("\n".join(ratios))
PY
