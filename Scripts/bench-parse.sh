#!/usr/bin/env bash
# Playlist parsing, side by side in one run: Tessera's parser (in-process, one core) against the
# Python m3u8 package and streamlink's parser (in-process, PyPI, installed here in a venv) and
# ffprobe (whole process, which also opens the first segment). Generated VOD media playlists of
# 1k/10k/100k segments (plain; PROGRAM-DATE-TIME on every segment; byte ranges; a key rotated
# every 100 segments) and a 200-variant / 50-rendition multivariant playlist; on the 100k ones
# MB/s and ns a segment beside the floors under any parser (memchr finding every line in-process,
# `wc -l` as a process). Also whole-process `tessera inspect --json` on the 100k PDT playlist
# against m3u8's parse alone.
#   bench-parse.sh [REPS]        (run by Scripts/bench.sh parse; BEFORE_PARSER=<an older
#                                 ParsePlaylists binary> adds its rows)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
REPS="${1:-5}"
SIZES="${SIZES:-1000,10000,100000}"
VENV="${TESSERA_BENCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera-bench/venv}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

swift build --package-path QualityGates/Bench -c release --product ParsePlaylists >/dev/null
OURS="$(swift build --package-path QualityGates/Bench -c release --show-bin-path)/ParsePlaylists"
TESSERA="$(bash Scripts/release-tessera.sh)"
GATES="$(bash Scripts/release-tessera.sh --product tessera-gates)"   # writes the playlists the scaling gate times
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import m3u8, streamlink" 2>/dev/null; then
  echo "bench: installing m3u8 and streamlink from PyPI into $VENV" >&2
  command -v python3 >/dev/null || apt-get install -y -qq python3 python3-venv >/dev/null
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV" || { apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$VENV"; }
  "$VENV/bin/pip" install -q m3u8 streamlink >&2
fi
PEER="$VENV/bin/python $HERE/QualityGates/Bench/peers/parse_peer.py"

"$GATES" generate "$WORK" "$SIZES"
# ffprobe needs the first segments to exist: one short TS, linked under every name it may open.
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i testsrc2=size=320x180:rate=25 -t 2 \
  -c:v libx264 -preset ultrafast -threads 1 -f mpegts "$WORK/seg.ts"
for v in plain pdt; do for i in $(seq 0 19); do ln -sf "$WORK/seg.ts" "$WORK/$v/seg_$(printf '%07d' "$i").ts"; done; done

median() { tr ',' '\n' | tr -d '[] ' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*\"$1\": \([^,}]*\).*/\1/p"; }
times_of() { sed -n 's/.*"times": \(\[[^]]*\]\).*/\1/p'; }
ffprobe_times() { # file
  local out=()
  for i in $(seq 0 "$REPS"); do
    local s e; s=$(date +%s.%N)
    (cd "$(dirname "$1")" && ffprobe -v quiet -show_format "$1" >/dev/null 2>&1) || true
    e=$(date +%s.%N)
    [ "$i" -gt 0 ] && out+=("$(awk -v e="$e" -v s="$s" 'BEGIN { print e - s }')")
  done
  printf '%s\n' "${out[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

printf '%-16s %-12s %7s %8s %11s %10s %12s %8s %10s\n' parser playlist N KB "median ms" "MB/s" "items/s" "RSS MB" "vs tessera"
row() { # parser playlist n bytes seconds items rss_kb ours_seconds
  awk -v p="$1" -v pl="$2" -v n="$3" -v b="$4" -v s="$5" -v it="$6" -v rss="$7" -v o="$8" 'BEGIN {
    printf "%-16s %-12s %7d %8.0f %11.2f %10.1f %12.0f %8.0f %10s\n", p, pl, n, b/1024, s*1000, b/1e6/s, it/s, rss/1024,
      (o > 0 ? sprintf("%.1fx", s/o) : "-")
    # The 100k and multivariant rows against m3u8 and streamlink: the lines bench.sh --check compares.
    if (o > 0 && (n == 100000 || pl == "multivariant") && (p == "m3u8" || p == "streamlink")) printf "ratio parse.%s.%s-vs-%s %.4f\n", pl, n, p, s/o }'
}
declare -A OURS_AT
for variant in plain pdt byterange key multivariant; do
  if [ "$variant" = multivariant ]; then files=("$WORK/multivariant/master.m3u8"); else
    files=(); for n in ${SIZES//,/ }; do files+=("$WORK/$variant/media_$n.m3u8"); done; fi
  for file in "${files[@]}"; do
    bytes=$(stat -c %s "$file")
    reps=$REPS
    ours=$("$OURS" time "$file" 9)   # ours is cheap: more reps steady the 100k/10k ratio
    o=$(echo "$ours" | times_of | median); items=$(echo "$ours" | field items)
    n=$items; [ "$variant" = multivariant ] && n=250
    OURS_AT["$variant/$n"]=$o
    row "tessera" "$variant" "$n" "$bytes" "$o" "$items" "$(echo "$ours" | field maxrss_kb)" 0
    if [ -n "${BEFORE_PARSER:-}" ]; then   # an older ParsePlaylists binary, side by side
      before=$("$BEFORE_PARSER" time "$file" 9)
      row "tessera-before" "$variant" "$n" "$bytes" "$(echo "$before" | times_of | median)" "$(echo "$before" | field items)" \
        "$(echo "$before" | field maxrss_kb)" "$o"
    fi
    for peer in m3u8 streamlink; do
      result=$($PEER "$peer" "$file" "$reps" 2>/dev/null || echo '{"times": [0], "items": 0, "maxrss_kb": 0}')
      row "$peer" "$variant" "$n" "$bytes" "$(echo "$result" | times_of | median)" "$(echo "$result" | field items)" \
        "$(echo "$result" | field maxrss_kb)" "$o"
    done
    if [ "$variant" = plain ] || [ "$variant" = pdt ]; then
      row "ffprobe (proc)" "$variant" "$n" "$bytes" "$(ffprobe_times "$file")" "$n" 0 "$o"
    fi
  done
done
echo
for variant in plain pdt byterange key; do
  a=${OURS_AT["$variant/100000"]:-}; b=${OURS_AT["$variant/10000"]:-}
  [ -n "$a" ] && [ -n "$b" ] && awk -v v="$variant" -v a="$a" -v b="$b" 'BEGIN { printf "linearity %-10s 100k/10k time = %.1f (linear: 10, target <= 12)\n", v, a/b }'
done
# The floors under any parser, on the same 100k playlists: every line found with memchr
# in-process (warm, one core), and `wc -l` as a whole process (which also reads the file).
printf '\n%-10s %9s %12s %12s %14s %12s %10s\n' floor "KB" "tessera MB/s" "ns/segment" "memchr MB/s" "wc -l MB/s" "of memchr"
for variant in plain pdt byterange key; do
  file="$WORK/$variant/media_100000.m3u8"
  [ -f "$file" ] || continue
  bytes=$(stat -c %s "$file")
  o=${OURS_AT["$variant/100000"]:-}
  floor=$("$OURS" lines "$file" 9 | times_of | median)
  wc=(); for i in $(seq 0 "$REPS"); do s=$(date +%s.%N); wc -l "$file" >/dev/null; e=$(date +%s.%N); [ "$i" -gt 0 ] && wc+=("$(awk -v e="$e" -v s="$s" 'BEGIN { print e - s }')"); done
  w=$(printf '%s\n' "${wc[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  awk -v v="$variant" -v b="$bytes" -v o="$o" -v f="$floor" -v w="$w" 'BEGIN {
    printf "%-10s %9.0f %12.1f %12.0f %14.1f %12.1f %9.1f%%\n", v, b/1024, b/1e6/o, o/100000*1e9, b/1e6/f, b/1e6/w, 100*f/o
    printf "ratio parse.%s.100000-vs-memchr %.4f\n", v, f/o }'
done
for variant in plain pdt byterange key; do
  file="$WORK/$variant/media_100000.m3u8"
  [ -f "$file" ] || continue
  "$OURS" memory "$file" | awk -v v="$variant" -F'[:,}]' '{
    bytes=$2; before=$4; after=$6; peak=$8
    printf "memory    %-10s input %.1f MB, model %.1f MB, peak above the model %.1f MB (target <= 4 x input = %.1f MB)\n", v, bytes/1e6, (after-before)/1024, (peak-after)/1024, 4*bytes/1e6 }'
done
big="$WORK/pdt/media_100000.m3u8"
if [ -f "$big" ]; then
  t=(); for i in $(seq 0 5); do s=$(date +%s.%N); "$TESSERA" inspect --json "$big" >/dev/null; e=$(date +%s.%N); [ "$i" -gt 0 ] && t+=("$(awk -v e="$e" -v s="$s" 'BEGIN { print e - s }')"); done
  whole=$(printf '%s\n' "${t[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  m3u8=$($PEER m3u8 "$big" 3 | times_of | median)
  awk -v w="$whole" -v m="$m3u8" 'BEGIN { printf "whole process: tessera inspect --json on 100k PDT %.0f ms vs m3u8 parse alone %.0f ms: %.1fx faster (target >= 10x)\n", w*1000, m*1000, m/w }'
fi
