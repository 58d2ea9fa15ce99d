# Sourced by the benchmarks that time tessera jobs against peers in one run (package, mux):
# REPS from the first argument, the release binary, an origin folder in /dev/shm ($SRC) and an
# output folder on disk ($OUT) removed at exit with the processes in PIDS, nginx-origin.sh, and
# `measure` / `wall` / `rss` over each label's runs.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$HERE"
REPS="${1:-3}"
TESSERA="$(bash Scripts/release-tessera.sh)"
SRC="$(mktemp -d -p /dev/shm)"; OUT="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$SRC" "$OUT"; }
trap cleanup EXIT
. "$HERE/Scripts/nginx-origin.sh"
BENCH_NAME="${BENCH_NAME:-bench}"
measure() { # label, command…   appends "seconds rss_kb" to $SRC/<label>.times
  local label="$1"; shift
  local s e; s=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$SRC/rss" "$@" > "$SRC/$label.out" 2> "$SRC/$label.err" || { echo "$BENCH_NAME: $label failed: $(tail -2 "$SRC/$label.err")" >&2; exit 1; }
  e=$(date +%s.%N)
  echo "$(awk -v e="$e" -v s="$s" 'BEGIN { print e - s }') $(tail -1 "$SRC/rss")" >> "$SRC/$label.times"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wall() { cut -d' ' -f1 "$SRC/$1.times" | median; }   # the median seconds of a label
rss() { cut -d' ' -f2 "$SRC/$1.times" | sort -g | tail -1; }   # the peak RSS (kB) of a label
