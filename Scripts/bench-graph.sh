#!/usr/bin/env bash
# The presentation graph, side by side in one run: a generated presentation of 200 variants and
# 50 renditions (30 audio, 20 subtitles), each child a 1,000-segment VOD playlist (~20 MB of
# playlists in all), served by nginx-light (1 worker) on loopback from /dev/shm.
#   curl -Z --parallel-max 8   fetches the 251 playlists (the ceiling for loading them)
#   tessera graph URL          loads, parses and diagnoses every child, prints the tree
#   tessera graph URL --json   the same, printing every segment of every child (MB/s of output)
#   ffprobe URL                opens the presentation (the peer that reads every child)
# Interleaved runs, medians of REPS; peak RSS of the median run's kind (max over runs).
#   bench-graph.sh [REPS]     (run by Scripts/bench.sh graph; BEFORE=<binary> is ignored: new)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
REPS="${1:-5}"
VARIANTS="${VARIANTS:-200}" AUDIO="${AUDIO:-30}" SUBTITLES="${SUBTITLES:-20}" SEGMENTS="${SEGMENTS:-1000}"
TESSERA="$(bash Scripts/release-tessera.sh)"
WORK="$( [ -d /dev/shm ] && mktemp -d -p /dev/shm || mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
. "$HERE/Scripts/nginx-origin.sh"
mkdir -p "$WORK/www/media"
python3 - "$WORK/www" "$VARIANTS" "$AUDIO" "$SUBTITLES" "$SEGMENTS" <<'PY'
import os, sys
root, variants, audio, subtitles, segments = sys.argv[1], *map(int, sys.argv[2:])
def media(path, ext):
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD",
             "#EXT-X-INDEPENDENT-SEGMENTS"]
    for i in range(segments):
        lines += ["#EXTINF:6.006,", f"/media/seg_{i:06d}.{ext}?cdn_token=0123456789abcdef0123456789abcd"]
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    open(os.path.join(root, path), "w").write("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n")
mv = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"]
for a in range(audio):
    mv.append(f'#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="audio {a}",LANGUAGE="l{a:02d}",DEFAULT={"YES" if a == 0 else "NO"},AUTOSELECT=YES,CHANNELS="2",URI="audio/{a}.m3u8"')
    media(f"audio/{a}.m3u8", "aac")
for s in range(subtitles):
    mv.append(f'#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="subtitles {s}",LANGUAGE="s{s:02d}",DEFAULT=NO,AUTOSELECT=YES,URI="subs/{s}.m3u8"')
    media(f"subs/{s}.m3u8", "vtt")
for v in range(variants):
    bandwidth = 200_000 + 40_000 * v
    mv.append(f'#EXT-X-STREAM-INF:BANDWIDTH={bandwidth},AVERAGE-BANDWIDTH={bandwidth * 9 // 10},CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=25,AUDIO="aud",SUBTITLES="subs"')
    mv.append(f"v{v}/index.m3u8")
    media(f"v{v}/index.m3u8", "ts")
open(os.path.join(root, "master.m3u8"), "w").write("\n".join(mv) + "\n")
PY
# ffprobe opens the first segments: one short TS (and one AAC, one WebVTT) under those names.
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i testsrc2=size=320x180:rate=25 -f lavfi -i sine=frequency=440 \
  -t 6 -c:v libx264 -preset ultrafast -threads 1 -c:a aac -f mpegts "$WORK/www/media/seg.ts"
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i sine=frequency=440 -t 6 -c:a aac -f adts "$WORK/www/media/seg.aac"
printf 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nhello\n' > "$WORK/www/media/seg.vtt"
for i in 0 1 2; do for e in ts aac vtt; do ln -sf "$WORK/www/media/seg.$e" "$WORK/www/media/seg_00000$i.$e"; done; done
start_origin "$WORK" "$WORK/www"; PIDS+=("$NGINX_PID")
URL="http://127.0.0.1:$PORT/master.m3u8"
CHILDREN=$(find "$WORK/www" -name '*.m3u8' ! -name master.m3u8 | wc -l)
BYTES=$(find "$WORK/www" -name '*.m3u8' -printf '%s\n' | awk '{s+=$1} END {print s}')
: > "$WORK/curl.cfg"
(cd "$WORK/www" && find . -name '*.m3u8' | sort) | while read -r path; do
  printf 'url = "http://127.0.0.1:%s/%s"\noutput = "/dev/null"\n' "$PORT" "${path#./}" >> "$WORK/curl.cfg"
done
echo "bench graph: $VARIANTS variants + $((AUDIO + SUBTITLES)) renditions, $CHILDREN media playlists of $SEGMENTS segments, $BYTES bytes of playlists (with the multivariant one), nginx-light on loopback, $(nproc) cores"

# measure <label> <command…>: appends "wall rss_kb" to $WORK/<label>.times; stdout to $WORK/<label>.out.
# A tessera run that fails makes the whole benchmark fail (its figures would mean nothing); ffprobe
# may exit non-zero on the partial media it is given and is timed anyway.
FAILED=0
measure() {
  local label="$1"; shift
  local s e; s=$(date +%s.%N)
  if ! /usr/bin/time -f "%M" -o "$WORK/rss" "$@" > "$WORK/$label.out" 2> "$WORK/$label.err"; then
    echo "bench graph: $label failed: $(tail -1 "$WORK/$label.err")" >&2
    [ "$label" = ffprobe ] || FAILED=1
  fi
  e=$(date +%s.%N)
  echo "$(awk -v e="$e" -v s="$s" 'BEGIN { print e - s }') $(tail -1 "$WORK/rss")" >> "$WORK/$label.times"
}
for rep in $(seq 1 "$REPS"); do
  measure curl curl -sS -Z --parallel-max 8 --config "$WORK/curl.cfg"
  measure graph "$TESSERA" graph "$URL"
  measure json "$TESSERA" graph "$URL" --json
  measure ffprobe ffprobe -v error -show_format "$URL"
done
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wall() { cut -d' ' -f1 "$WORK/$1.times" | median; }
rss() { cut -d' ' -f2 "$WORK/$1.times" | sort -g | tail -1; }
CURL=$(wall curl)
JSON_BYTES=$(stat -c %s "$WORK/json.out")
grep -q "presentation, $CHILDREN media playlists" "$WORK/graph.out" \
  || { echo "bench graph: the tree does not name $CHILDREN media playlists: $(head -1 "$WORK/graph.out")" >&2; FAILED=1; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=len(d["playlists"]); assert n==int(sys.argv[2]) and all(p["playlist"] for p in d["playlists"]), n' "$WORK/json.out" "$CHILDREN" \
  || { echo "bench graph: the JSON document is not complete" >&2; FAILED=1; }
printf '%-28s %8s %8s %10s %12s\n' tool "wall s" "RSS MB" "vs curl" "output MB/s"
for label in curl graph json ffprobe; do
  w=$(wall "$label"); r=$(rss "$label")
  out=""; [ "$label" = json ] && out=$(awk -v b="$JSON_BYTES" -v w="$w" 'BEGIN { printf "%.0f", b / 1e6 / w }')
  name=$label
  case $label in curl) name="curl -Z --parallel-max 8";; graph) name="tessera graph";; json) name="tessera graph --json";; ffprobe) name="ffprobe";; esac
  awk -v n="$name" -v w="$w" -v r="$r" -v c="$CURL" -v o="$out" 'BEGIN { printf "%-28s %8.2f %8.1f %9.2fx %12s\n", n, w, r / 1024, w / c, o }'
done
awk -v f="$(wall ffprobe)" -v g="$(wall graph)" -v b="$JSON_BYTES" 'BEGIN { printf "ffprobe / tessera graph: %.1fx; --json wrote %.1f MB\n", f / g, b / 1e6 }'
# The lines bench.sh --check compares with the baseline (peer time / ours: higher is better).
awk -v c="$CURL" -v g="$(wall graph)" -v j="$(wall json)" -v f="$(wall ffprobe)" 'BEGIN {
  printf "ratio graph.tree-vs-curl %.4f\nratio graph.json-vs-curl %.4f\nratio graph.tree-vs-ffprobe %.4f\n", c / g, c / j, f / g }'
diagnostics=$(grep -c "^  \(error\|warning\|info\) " "$WORK/graph.out" || true)
echo "diagnostics in the tree: $diagnostics"
if [ "$FAILED" != 0 ]; then echo "bench graph: FAILED (a tessera run failed or its output is incomplete)" >&2; exit 1; fi
