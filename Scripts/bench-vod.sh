#!/usr/bin/env bash
# tessera download side by side with the peers of ../shared/bench/bench-vod.sh and bench-aes.sh, in
# one run, on the same kind of stream: 200 × ~1 MB MPEG-TS segments (4 s, CBR 1750k + AAC) and
# their AES-128 copy, served by nginx-light (1 worker) on loopback, everything on /dev/shm.
#   (a) wall/CPU/peak RSS of: curl -Z --parallel-max 8 then cat (the ceiling), tessera download
#       (default 6 in flight), ffmpeg -c copy, yt-dlp -N 8, streamlink --stream-segment-threads 8;
#       clear and AES-128. Every output is checked against the clear concatenation.
#   (b) decryption: TesseraMedia's AES-128-CBC in place over the AES-128 stream's segments vs
#       openssl speed -evp aes-128-cbc -decrypt (16 KiB blocks).
#   (c) memory: tessera download of a ≥ 2 GB stream (BIG_SEGMENTS × ~1 MB), peak RSS.
#   (d) validation: tessera validate of that 2 GB output, GB/s.
# Runs are interleaved (rep-major); medians of REPS.   bench-vod.sh [REPS]   (BEFORE=<an older
# tessera binary> adds its rows and its 2 GB memory figure)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
REPS="${1:-3}"
NSEG="${NSEG:-200}"
BIG_SEGMENTS="${BIG_SEGMENTS:-2100}"
rm -f QualityGates/Bench/.build/release.yaml QualityGates/Bench/.build/build.db
swift build --package-path QualityGates/Bench -c release --product DecryptBench >/dev/null
TESSERA="$(bash Scripts/release-tessera.sh)"
DECRYPT="$(swift build --package-path QualityGates/Bench -c release --show-bin-path)/DecryptBench"
. "$HERE/Scripts/bench-peers.sh"
WORK="$( [ -d /dev/shm ] && mktemp -d -p /dev/shm || mktemp -d)"
NGINX_PID=""
cleanup() { [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
W="$WORK/www" OUT="$WORK/out" PARTS="$WORK/parts"
mkdir -p "$W/plain" "$W/enc" "$W/big" "$OUT" "$WORK/nginx/logs" "$WORK/nginx/tmp"

echo "bench vod: generating media ($NSEG segments, and $BIG_SEGMENTS for the memory run)" >&2
ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=640x360:rate=25 \
  -f lavfi -i sine=frequency=440:sample_rate=48000 -t 20 -c:v libx264 -preset ultrafast -threads 1 \
  -g 100 -keyint_min 100 -sc_threshold 0 -b:v 1750k -minrate 1750k -maxrate 1750k -bufsize 1750k \
  -x264-params nal-hrd=cbr -c:a aac -b:a 96k -f mpegts "$WORK/base.ts"
HLS=(-f hls -hls_time 4 -hls_list_size 0 -hls_playlist_type vod)
ffmpeg -nostdin -hide_banner -loglevel error -y -stream_loop $(((NSEG * 4 + 19) / 20 - 1)) -i "$WORK/base.ts" -c copy \
  "${HLS[@]}" -hls_segment_filename "$W/plain/seg_%03d.ts" "$W/plain/index.m3u8"
KEYHEX=$(openssl rand -hex 16)
printf '%s' "$KEYHEX" | xxd -r -p > "$W/enc/enc.key"
printf 'enc.key\n%s\n' "$W/enc/enc.key" > "$WORK/keyinfo"
ffmpeg -nostdin -hide_banner -loglevel error -y -stream_loop $(((NSEG * 4 + 19) / 20 - 1)) -i "$WORK/base.ts" -c copy \
  "${HLS[@]}" -hls_key_info_file "$WORK/keyinfo" -hls_segment_filename "$W/enc/seg_%03d.ts" "$W/enc/index.m3u8"
ffmpeg -nostdin -hide_banner -loglevel error -y -stream_loop $(((BIG_SEGMENTS * 4 + 19) / 20 - 1)) -i "$WORK/base.ts" -c copy \
  "${HLS[@]}" -hls_segment_filename "$W/big/seg_%04d.ts" "$W/big/index.m3u8"
# ffmpeg writes one EXT-X-KEY with an explicit IV for every segment (media.md F5).
IVHEX=$(sed -n 's/.*IV=0x\([0-9a-fA-F]*\).*/\1/p' "$W/enc/index.m3u8")
cat "$W"/plain/seg_*.ts > "$WORK/reference.ts"
REF_SHA=$(sha256sum "$WORK/reference.ts" | cut -d' ' -f1)
PLAIN_BYTES=$(stat -c %s "$WORK/reference.ts")
ENC_BYTES=$(cat "$W"/enc/seg_*.ts | wc -c)
BIG_BYTES=$(cat "$W"/big/seg_*.ts | wc -c)

source "$HERE/Scripts/nginx-origin.sh"
start_origin "$WORK" "$W"
BASE="http://127.0.0.1:$PORT"
for v in plain enc; do
  : > "$WORK/$v-par.cfg"
  for s in $(grep '^seg_' "$W/$v/index.m3u8"); do printf 'url = "%s"\noutput = "%s"\n' "$BASE/$v/$s" "$PARTS/$s" >> "$WORK/$v-par.cfg"; done
done

RESULTS="$WORK/results"; : > "$RESULTS"
run() { # label, command...; appends "label wall user sys maxrss_kb", checks the output against the reference
  local label="$1"; shift
  rm -rf "$OUT"/* "$OUT"/.[!.]* "$PARTS"; mkdir -p "$PARTS"
  /usr/bin/time -f "$label %e %U %S %M" -a -o "$RESULTS" timeout 600 "$@" > "$WORK/last.out" 2>&1 ||
    { echo "bench-vod: $label failed: $(tail -3 "$WORK/last.out")" >&2; exit 1; }
  local sha; sha=$(sha256sum "$OUT/out.ts" | cut -d' ' -f1)
  [ "$sha" = "$REF_SHA" ] || echo "bench-vod: $label: output differs from the clear concatenation" >&2
  [ "$sha" = "$REF_SHA" ] && echo "$label" >> "$WORK/exact" || true
}
YTDLP=("$VENV/bin/yt-dlp" --ignore-config --no-cache-dir --ies generic --no-part --no-mtime --quiet --no-progress
  --no-warnings --fixup never --downloader m3u8:native -N 8)
SL=("$VENV/bin/streamlink" --no-config --loglevel error --progress no --force --stream-segment-threads 8)
FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
curl -s -Z --parallel-max 8 -K "$WORK/plain-par.cfg" >/dev/null 2>&1 || true   # warm nginx and the page cache
echo "bench vod: $REPS reps, $NSEG segments ($PLAIN_BYTES B clear, $ENC_BYTES B AES-128), nginx-light on loopback, $(nproc) cores" >&2
for rep in $(seq 1 "$REPS"); do
  echo "  rep $rep" >&2
  for v in plain enc; do
    run "$v curl-Z8+cat" bash -c "curl -s -Z --parallel-max 8 -K '$WORK/$v-par.cfg' && cat '$PARTS'/seg_*.ts > '$OUT/out.ts'"
    if [ "$v" = enc ]; then  # the ceiling with decryption: curl -Z, then openssl per segment
      run "enc curl-Z8+openssl" bash -c "curl -s -Z --parallel-max 8 -K '$WORK/enc-par.cfg' && for f in '$PARTS'/seg_*.ts; do openssl aes-128-cbc -d -K $KEYHEX -iv $IVHEX -in \"\$f\"; done > '$OUT/out.ts'"
    fi
    run "$v tessera" "$TESSERA" download "$BASE/$v/index.m3u8" -o "$OUT/out.ts"
    [ -z "${BEFORE:-}" ] || run "$v tessera-before" "$BEFORE" download "$BASE/$v/index.m3u8" -o "$OUT/out.ts"
    run "$v ffmpeg" "${FF[@]}" -i "$BASE/$v/index.m3u8" -c copy "$OUT/out.ts"
    run "$v yt-dlp-N8" "${YTDLP[@]}" -o "$OUT/out.ts" "$BASE/$v/index.m3u8"
    run "$v streamlink-8" "${SL[@]}" -o "$OUT/out.ts" "hls://$BASE/$v/index.m3u8" best
  done
done

python3 - "$RESULTS" "$PLAIN_BYTES" "$WORK/exact" <<'PY'
import statistics as st, sys
rows = {}
for line in open(sys.argv[1]):
    *label, wall, user, sys_, rss = line.split()
    rows.setdefault(" ".join(label), []).append((float(wall), float(user) + float(sys_), int(rss) / 1024))
exact = set(l.strip() for l in open(sys.argv[3])) if len(sys.argv) > 3 else set()
size = int(sys.argv[2])
print("exact: the output equals the clear concatenation (ffmpeg remuxes; the enc curl+cat ceiling keeps ciphertext)")
print(f"{'stream':<6} {'tool':<18} {'wall s':>8} {'CPU s':>7} {'RSS MB':>7} {'MB/s':>7} {'vs ceiling':>10}  exact")
ratios = []
for v in ("plain", "enc"):
    ceiling = st.median(r[0] for r in rows[f"{v} curl-Z8+cat"])
    for label, runs in rows.items():
        if not label.startswith(v + " "): continue
        wall = st.median(r[0] for r in runs); cpu = st.median(r[1] for r in runs); rss = max(r[2] for r in runs)
        print(f"{v:<6} {label[len(v)+1:]:<18} {wall:>8.2f} {cpu:>7.2f} {rss:>7.1f} {size / wall / 1e6:>7.0f} {wall / ceiling:>9.2f}x  {'yes' if label in exact else 'NO'}")
        if label.split(" ", 1)[1].startswith("tessera"):   # for bench.sh --check: the ceiling's time / ours
            ratios.append(f"ratio vod.{v}.{label.split(' ', 1)[1].replace(' ', '-')}-vs-ceiling {ceiling / wall:.4f}")
print("\n".join(ratios))
PY

echo
OPENSSL=$(for _ in $(seq 1 "$REPS"); do openssl speed -evp aes-128-cbc -decrypt -seconds 1 2>/dev/null | awk '/^(AES-128-CBC|aes-128-cbc)/ {print $NF}'; done | sed 's/k$//' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] / 1000}')
OURS=$(for _ in $(seq 1 "$REPS"); do "$DECRYPT" "$KEYHEX" "$IVHEX" "$W"/enc/seg_*.ts | awk '{print $2}'; done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
python3 -c "import sys; o, s = float(sys.argv[1]), float(sys.argv[2]); print(f'decrypt AES-128-CBC: TesseraMedia {o:.0f} MB/s in place over the AES-128 stream segments, openssl speed (16 KiB) {s:.0f} MB/s -> {o / s:.0%}'); print(f'ratio vod.decrypt-vs-openssl {o / s:.4f}')" "$OURS" "$OPENSSL"

big_run() { # label binary: appends "wall rss" of one ≥ 2 GB download to $WORK/<label>.big
  rm -rf "$OUT"/* "$OUT"/.[!.]*
  /usr/bin/time -f "%e %M" -a -o "$WORK/$1.big" "$2" download "$BASE/big/index.m3u8" -o "$OUT/big.ts" > /dev/null 2>&1
}
# Interleaved, two rounds when an older binary runs beside it (the first run into a fresh
# /dev/shm pays for reclaiming memory): the faster round and the higher peak of each.
big_run tessera "$TESSERA"
[ -z "${BEFORE:-}" ] || { big_run before "$BEFORE"; big_run tessera "$TESSERA"; big_run before "$BEFORE"; }
for label in tessera before; do
  [ -f "$WORK/$label.big" ] || continue
  read -r BIG_WALL BIG_RSS < <(sort -n "$WORK/$label.big" | awk '{w = (NR == 1 ? $1 : w); if ($2 > r) r = $2} END {print w, r}')
  name=tessera; [ "$label" = before ] && name=tessera-before
  echo "memory: $name download of $BIG_SEGMENTS segments ($BIG_BYTES B) in ${BIG_WALL} s, peak RSS $((BIG_RSS / 1024)) MB"
done
/usr/bin/time -f "%e %M" -o "$WORK/validate.time" "$TESSERA" validate "$OUT/big.ts" > /dev/null
read -r V_WALL V_RSS < "$WORK/validate.time"
python3 -c "import sys; b, t = int(sys.argv[1]), float(sys.argv[2]); print(f'validation: tessera validate of {b} B in {t:.2f} s = {b / t / 1e9:.2f} GB/s, peak RSS {int(sys.argv[3]) // 1024} MB')" "$BIG_BYTES" "$V_WALL" "$V_RSS"
