#!/usr/bin/env bash
# One MP4 from a ladder with separate audio, side by side in one run. ffmpeg's own HLS muxer
# makes a 90 s 1280x720 8 Mbit/s H.264 variant with two AAC renditions (en; fr the default),
# 4 s segments, as MPEG-TS and as fMP4; nginx-light (1 worker) serves them from /dev/shm; the
# files are written to the disk's temporary folder.
#   ceiling  curl -Z --parallel-max 8 fetching the variant's and the fr rendition's files
#   tessera  tessera download master.m3u8 -o movie.mp4 --audio lang:fr   (peak RSS too), with
#            --sha256 (the file read once more for its digest), --fragmented, and -o movie.ts
#            (the same tracks muxed into one MPEG-TS)
#   ffmpeg   ffmpeg -i master.m3u8 -map 0:v:0 -map 0:a:m:language:fr -c copy movie.mp4
#   yt-dlp   yt-dlp -f 'bv*+ba[language=fr]' --merge-output-format mp4 (its native HLS downloader,
#            -N 8, then its ffmpeg merge)
# Also: the bytes tessera writes to disk (the file, and its checkpoint), against the file,
# progressive and fragmented; and peak RSS for a 2 GB result (the TS ladder 22 times over, 2 GB
# transferred).
# Interleaved runs, medians of REPS.   bench-mux.sh [REPS]   (run by Scripts/bench.sh mux)
BENCH_NAME="bench mux"
. "$(dirname "$0")/bench-jobs.sh" "${1:-3}"
. "$HERE/Scripts/bench-peers.sh"
YTDLP=("$VENV/bin/yt-dlp" --ignore-config --no-cache-dir --ies generic --no-part --no-mtime --quiet --no-progress --no-warnings
  --downloader m3u8:native -N 8 -f "bv*+ba[language=fr]" --merge-output-format mp4)
ladder() { # folder, extra ffmpeg HLS options…
  local dir="$SRC/www/$1"; shift; mkdir -p "$dir"
  ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=25 \
    -f lavfi -i sine=frequency=440:sample_rate=48000 -f lavfi -i sine=frequency=660:sample_rate=48000 -t 90 \
    -map 0:v -map 1:a -map 2:a -c:v libx264 -preset ultrafast -b:v 8M -maxrate 8M -bufsize 16M -g 100 -keyint_min 100 -sc_threshold 0 \
    -c:a aac -b:a 128k -f hls -hls_time 4 -hls_playlist_type vod -master_pl_name master.m3u8 "$@" \
    -var_stream_map "v:0,agroup:aud a:0,agroup:aud,language:en,name:English a:1,agroup:aud,language:fr,name:Francais,default:yes" \
    "$dir/v%v/index.m3u8"
}
echo "bench mux: making the ladders (ffmpeg, 90 s 1280x720 8 Mbit/s + 2 AAC renditions, TS and fMP4)"
ladder ts -hls_segment_filename "$SRC/www/ts/v%v/seg_%03d.ts"
ladder fmp4 -hls_segment_type fmp4 -hls_segment_filename "$SRC/www/fmp4/v%v/seg_%03d.m4s"
start_origin "$SRC" "$SRC/www"; PIDS+=("$NGINX_PID")
printf '%-52s %8s %8s %10s\n' job "wall s" "RSS MB" "vs curl"
for kind in ts fmp4; do
  URL="http://127.0.0.1:$PORT/$kind/master.m3u8"
  : > "$SRC/$kind.curl.cfg"
  for folder in v0 vFrancais; do   # the variant and the fr rendition (ffmpeg 5.1 names its folder after the NAME given)
    for file in $(cd "$SRC/www/$kind/$folder" && ls); do
      printf 'url = "http://127.0.0.1:%s/%s/%s/%s"\noutput = "%s/curl/%s/%s"\n' "$PORT" "$kind" "$folder" "$file" "$OUT" "$folder" "$file" >> "$SRC/$kind.curl.cfg"
    done
  done
  for _ in $(seq 1 "$REPS"); do
    rm -rf "$OUT/curl" "$OUT/movie.mp4" "$OUT/digest.mp4" "$OUT/ffmpeg.mp4" "$OUT/fragmented.mp4" "$OUT/ytdlp.mp4" "$OUT/movie.ts"
    measure "$kind.curl" curl -sS -Z --parallel-max 8 --create-dirs --config "$SRC/$kind.curl.cfg"
    rm -rf "$OUT/curl"
    measure "$kind.tessera" "$TESSERA" download "$URL" -o "$OUT/movie.mp4" --audio lang:fr
    rm -f "$OUT/digest.mp4"
    measure "$kind.digest" "$TESSERA" download "$URL" -o "$OUT/digest.mp4" --audio lang:fr --sha256
    rm -rf "$OUT/fragmented.mp4"
    measure "$kind.fragmented" "$TESSERA" download "$URL" -o "$OUT/fragmented.mp4" --audio lang:fr --fragmented
    rm -f "$OUT/movie.ts"
    measure "$kind.transport" "$TESSERA" download "$URL" -o "$OUT/movie.ts" --audio lang:fr
    measure "$kind.ffmpeg" ffmpeg -nostdin -v error -y -i "$URL" -map 0:v:0 -map 0:a:m:language:fr -c copy "$OUT/ffmpeg.mp4"
    rm -f "$OUT/ytdlp.mp4"
    measure "$kind.ytdlp" "${YTDLP[@]}" -o "$OUT/ytdlp.%(ext)s" "$URL"
  done
  grep -q 'MP4 of video (2250 pictures), audio (fra, ' "$SRC/$kind.tessera.out" || { echo "bench mux: unexpected result: $(cat "$SRC/$kind.tessera.out")" >&2; exit 1; }
  # Disk bytes tessera writes for one run (the file and its checkpoint), the
  # progressive file and, then, the fragmented one.
  disk() { # output file, extra options…   bytes the run wrote, counted when it is reaped (exact: polling misses the last ones)
    local file="$1"; shift
    rm -f "$file"
    python3 - "$TESSERA" download "$URL" -o "$file" --audio lang:fr "$@" <<'PY'
import subprocess, sys
def written():
    for line in open("/proc/self/io"):
        if line.startswith("write_bytes"): return int(line.split()[1])
before = written()   # a reaped child's I/O is added to its parent's
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(written() - before)
PY
  }
  io=$(disk "$OUT/movie.mp4")
  fio=$(disk "$OUT/fragmented.mp4" --fragmented)
  fsize=$(stat -c %s "$OUT/fragmented.mp4")
  rm -f "$OUT/fragmented.mp4"
  size=$(stat -c %s "$OUT/movie.mp4")
  awk -v c="$(wall "$kind.curl")" -v t="$(wall "$kind.tessera")" -v f="$(wall "$kind.ffmpeg")" -v r="$(rss "$kind.tessera")" \
      -v fr="$(rss "$kind.ffmpeg")" -v cr="$(rss "$kind.curl")" -v k="$kind" -v io="$io" -v size="$size" -v fio="$fio" -v fsize="$fsize" \
      -v dt="$(wall "$kind.digest")" -v drss="$(rss "$kind.digest")" -v ft="$(wall "$kind.fragmented")" -v frss="$(rss "$kind.fragmented")" -v tt="$(wall "$kind.transport")" -v trss="$(rss "$kind.transport")" -v y="$(wall "$kind.ytdlp")" -v yr="$(rss "$kind.ytdlp")" 'BEGIN {
    printf "%-52s %8.2f %8.1f %10s\n", k ": curl -Z --parallel-max 8 (ceiling: fetch only)", c, cr / 1024, "1.00x"
    printf "%-52s %8.2f %8.1f %9.2fx\n", k ": tessera download -o movie.mp4 --audio lang:fr", t, r / 1024, t / c
    printf "%-52s %8.2f %8.1f %9.2fx\n", k ": tessera download ... --sha256", dt, drss / 1024, dt / c
    printf "%-52s %8.2f %8.1f %9.2fx\n", k ": tessera download ... --fragmented", ft, frss / 1024, ft / c
    printf "%-52s %8.2f %8.1f %9.2fx\n", k ": tessera download -o movie.ts (muxed MPEG-TS)", tt, trss / 1024, tt / c
    printf "%-52s %8.2f %8.1f %9.2fx\n", k ": ffmpeg -c copy movie.mp4", f, fr / 1024, f / c
    printf "%-52s %8.2f %8.1f %9.2fx\n", k ": yt-dlp -N 8 (native HLS, then its ffmpeg merge)", y, yr / 1024, y / c
    printf "%-52s %8.2f x the file (%.1f MB written for %.1f MB)\n", k ": tessera disk bytes written", io / size, io / 1e6, size / 1e6
    printf "%-52s %8.2f x the file (%.1f MB written for %.1f MB)\n", k ": tessera --fragmented disk bytes written", fio / fsize, fio / 1e6, fsize / 1e6
    printf "ratio mux.%s-vs-ffmpeg %.4f\n", k, f / t }'   # for bench.sh --check: higher is better
done
# Memory for a 2 GB result: the TS ladder's video and fr audio 22 times over, a discontinuity
# between repeats (each run joined on one timeline), muxed into one 2 GB MP4 (co64). Each repeat
# has URIs of its own (links to the same files), so 2 GB are transferred as from a real source.
mkdir -p "$SRC/www/big"
python3 - "$SRC/www" <<'PY'
import os, sys
root = sys.argv[1]
for name, folder in (("video", "v0"), ("audio", "vFrancais")):
    lines = open(f"{root}/ts/{folder}/index.m3u8").read().splitlines()
    segments = [(lines[i], lines[i + 1]) for i in range(len(lines)) if lines[i].startswith("#EXTINF")]
    out = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:5", "#EXT-X-PLAYLIST-TYPE:VOD"]
    for repeat in range(22):
        out += ["#EXT-X-DISCONTINUITY"] if repeat else []
        os.makedirs(f"{root}/big/r{repeat}/{folder}", exist_ok=True)
        for extinf, uri in segments:
            os.symlink(f"{root}/ts/{folder}/{uri}", f"{root}/big/r{repeat}/{folder}/{uri}")
            out += [extinf, f"r{repeat}/{folder}/{uri}"]
    open(f"{root}/big/{name}.m3u8", "w").write("\n".join(out + ["#EXT-X-ENDLIST"]) + "\n")
open(f"{root}/big/master.m3u8", "w").write('#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="fr",LANGUAGE="fr",DEFAULT=YES,URI="audio.m3u8"\n'
    '#EXT-X-STREAM-INF:BANDWIDTH=8940800,RESOLUTION=1280x720,CODECS="avc1.42c020,mp4a.40.2",AUDIO="aud"\nvideo.m3u8\n')
PY
rm -f "$OUT/movie.mp4" "$OUT/fragmented.mp4" "$OUT/movie.ts"
measure big "$TESSERA" download "http://127.0.0.1:$PORT/big/master.m3u8" -o "$OUT/big.mp4"
grep -q 'MP4 of video (49500 pictures), audio (fra, ' "$SRC/big.out" || { echo "bench mux: unexpected 2 GB result: $(cat "$SRC/big.out")" >&2; exit 1; }
awk -v w="$(wall big)" -v r="$(rss big)" -v s="$(stat -c %s "$OUT/big.mp4")" \
  'BEGIN { printf "memory: tessera download of a %.2f GB movie (49,500 pictures, 22 runs joined) in %.2f s, peak RSS %.1f MiB\n", s / 1e9, w, r / 1024 }'
rm -f "$OUT/big.mp4"
