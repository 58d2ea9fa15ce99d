#!/usr/bin/env bash
# Offline packages, side by side in one run. A generated presentation served by nginx-light
# (1 worker) from /dev/shm: 3 video variants of 100 × 2 MiB segments (only the best is taken),
# 2 audio renditions of 100 × 96 KiB and 2 subtitle tracks of 100 small cues, one of each chosen
# by language (~210 MB packaged). The package is written to the disk's temporary folder.
#   ceiling  curl -Z --parallel-max 8 fetching the same files, then `sync` (tessera fsyncs every
#            file and folder; curl does not)
#   tessera  tessera package URL -o DIR --audio lang:en --subtitles lang:en (peak RSS too);
#            BEFORE=<an older tessera binary> runs it too, interleaved, in a row of its own
#   verify   tessera verify-package DIR (every byte hashed, its files on every core) against
#            `openssl speed -evp sha256 -multi <cores>` on 1 MiB blocks
#   aes      the same package of an AES-128 copy of the video variant (one key, decrypted on the way
#            in, hashed, written) against curl -Z + sync fetching its ciphertext
#   verify1  tessera verify-package of a package holding one large file (a 400 × 2 MiB byte-range
#            variant, 800 MiB in one file: one file is hashed on one core) against
#            `openssl speed -evp sha256` on one core
# Interleaved runs, medians of REPS.   bench-package.sh [REPS]   (run by Scripts/bench.sh package)
BENCH_NAME="bench package"
. "$(dirname "$0")/bench-jobs.sh" "${1:-3}"
KEYHEX=$(openssl rand -hex 16) IVHEX=$(openssl rand -hex 16)
python3 - "$SRC/www" "$HERE" "$IVHEX" <<'PY'
import os, sys
root = sys.argv[1]
def write(path, data):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    open(os.path.join(root, path), "wb").write(data)
def playlist(path, uris, duration):
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:%d" % round(duration), "#EXT-X-PLAYLIST-TYPE:VOD"]
    for uri in uris: lines += ["#EXTINF:%.3f," % duration, uri]
    write(path, ("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n").encode())
block = os.urandom(1 << 20)
# Valid MPEG-TS (a package checks each segment as media): the fixture's tables, then null packets.
tables = open(os.path.join(sys.argv[2], "Fixtures", "a_ts_vod", "seg_000.ts"), "rb").read()[:3 * 188]
def transport_stream(size, seed):
    body = bytearray(tables)
    while len(body) + 188 <= size:
        start = (len(body) * 7 + seed) % ((1 << 20) - 184)
        body += b"\x47\x1f\xff\x10" + block[start:start + 184]
    return bytes(body)
for i in range(100):
    write("media/v_%03d.ts" % i, transport_stream(2 << 20, i))      # 2 MiB
    write("media/a_%03d.aac" % i, block[:96 << 10])
    write("media/s_%03d.vtt" % i, b"WEBVTT\n\n00:00:00.000 --> 00:00:04.000\ncue %d\n" % i)
mv = ["#EXTM3U", "#EXT-X-VERSION:3"]
for lang in ("en", "fr"):
    playlist("audio_%s.m3u8" % lang, ["media/a_%03d.aac" % i for i in range(100)], 4.0)
    playlist("subs_%s.m3u8" % lang, ["media/s_%03d.vtt" % i for i in range(100)], 4.0)
    mv.append('#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="%s",LANGUAGE="%s",DEFAULT=%s,AUTOSELECT=YES,URI="audio_%s.m3u8"' % (lang, lang, "YES" if lang == "fr" else "NO", lang))
    mv.append('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="%s",LANGUAGE="%s",DEFAULT=NO,AUTOSELECT=YES,URI="subs_%s.m3u8"' % (lang, lang, lang))
renditions = list(mv[2:])
for v, bandwidth in enumerate((1_000_000, 2_000_000, 4_200_000)):
    playlist("video_%d.m3u8" % v, ["media/v_%03d.ts" % i for i in range(100)], 4.0)
    mv += ['#EXT-X-STREAM-INF:BANDWIDTH=%d,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aud",SUBTITLES="subs"' % bandwidth, "video_%d.m3u8" % v]
write("master.m3u8", ("\n".join(mv) + "\n").encode())
# One large file: the video segments four times over, listed as 400 byte ranges of 2 MiB.
ranges = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
with open(os.path.join(root, "media", "single.ts"), "wb") as single:
    for i in list(range(100)) * 4:
        segment = open(os.path.join(root, "media", "v_%03d.ts" % i), "rb").read()
        ranges += ["#EXTINF:4.000,", "#EXT-X-BYTERANGE:%d@%d" % (len(segment), single.tell()), "media/single.ts"]
        single.write(segment)
write("single_video.m3u8", ("\n".join(ranges + ["#EXT-X-ENDLIST"]) + "\n").encode())
write("single.m3u8", b'#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=4200000,CODECS="avc1.64001f"\nsingle_video.m3u8\n')
# AES-128: the video segments under one key (media/e_*.ts, encrypted by openssl below).
lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
         '#EXT-X-KEY:METHOD=AES-128,URI="media/enc.key",IV=0x%s' % sys.argv[3]]
for i in range(100): lines += ["#EXTINF:4.000,", "media/e_%03d.ts" % i]
write("enc_video.m3u8", ("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n").encode())
write("enc.m3u8", ("\n".join(["#EXTM3U", "#EXT-X-VERSION:3"] + renditions + [
    '#EXT-X-STREAM-INF:BANDWIDTH=4200000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aud",SUBTITLES="subs"', "enc_video.m3u8"]) + "\n").encode())
PY
printf '%s' "$KEYHEX" | xxd -r -p > "$SRC/www/media/enc.key"
for i in $(seq -w 0 99); do
  openssl enc -aes-128-cbc -K "$KEYHEX" -iv "$IVHEX" -in "$SRC/www/media/v_0$i.ts" -out "$SRC/www/media/e_0$i.ts"
done
start_origin "$SRC" "$SRC/www"; PIDS+=("$NGINX_PID")
URL="http://127.0.0.1:$PORT/master.m3u8"
: > "$SRC/curl.cfg"; : > "$SRC/curl-aes.cfg"
for path in master.m3u8 video_2.m3u8 audio_en.m3u8 subs_en.m3u8 $(for i in $(seq -w 0 99); do printf 'media/v_0%s.ts media/a_0%s.aac media/s_0%s.vtt ' "$i" "$i" "$i"; done); do
  printf 'url = "http://127.0.0.1:%s/%s"\noutput = "%s/curl/%s"\n' "$PORT" "$path" "$OUT" "$path" >> "$SRC/curl.cfg"
done
for path in enc.m3u8 enc_video.m3u8 media/enc.key audio_en.m3u8 subs_en.m3u8 $(for i in $(seq -w 0 99); do printf 'media/e_0%s.ts media/a_0%s.aac media/s_0%s.vtt ' "$i" "$i" "$i"; done); do
  printf 'url = "http://127.0.0.1:%s/%s"\noutput = "%s/curl/%s"\n' "$PORT" "$path" "$OUT" "$path" >> "$SRC/curl-aes.cfg"
done
BYTES=$(grep '^output' "$SRC/curl.cfg" | sed 's#.*/curl/##; s#"##' | (cd "$SRC/www" && xargs stat -c %s) | awk '{s+=$1} END {print s}')
echo "bench package: 3 variants × 100 × 2 MiB, 2 audio, 2 subtitles; one of each taken, $BYTES bytes; nginx-light from /dev/shm, package to $(df --output=source "$OUT" | tail -1), $(nproc) cores"
"$TESSERA" package "http://127.0.0.1:$PORT/single.m3u8" -o "$OUT/pkg-single" > /dev/null   # not timed: verify1 reads it
for _ in $(seq 1 "$REPS"); do
  rm -rf "$OUT/curl" "$OUT/pkg"; sync
  measure curl bash -c "curl -sS -Z --parallel-max 8 --create-dirs --config '$SRC/curl.cfg' && sync"
  rm -rf "$OUT/curl"; sync
  measure tessera "$TESSERA" package "$URL" -o "$OUT/pkg" --audio lang:en --subtitles lang:en
  rm -rf "$OUT/curl"; sync
  measure curl-aes bash -c "curl -sS -Z --parallel-max 8 --create-dirs --config '$SRC/curl-aes.cfg' && sync"
  rm -rf "$OUT/curl" "$OUT/pkg-aes"; sync
  measure tessera-aes "$TESSERA" package "http://127.0.0.1:$PORT/enc.m3u8" -o "$OUT/pkg-aes" --audio lang:en --subtitles lang:en
  rm -rf "$OUT/pkg-aes"
  measure verify "$TESSERA" verify-package "$OUT/pkg"
  measure verify1 "$TESSERA" verify-package "$OUT/pkg-single"
  if [ -n "${BEFORE:-}" ]; then   # an older tessera, interleaved: the same job side by side
    rm -rf "$OUT/pkg-before"; sync
    measure before "$BEFORE" package "$URL" -o "$OUT/pkg-before" --audio lang:en --subtitles lang:en
    rm -rf "$OUT/pkg-before"
  fi
done
grep -q "tracks video, audio-1, subtitles-1" "$SRC/verify.out" || { echo "bench package: unexpected package: $(cat "$SRC/verify.out")" >&2; exit 1; }
HASHED=$(du -sb "$OUT/pkg" | cut -f1)
HASHED1=$(du -sb "$OUT/pkg-single" | cut -f1)
SHA=$(openssl speed -evp sha256 -bytes 1048576 -seconds 3 2>/dev/null | awk '/^sha256/ {sub("k", "", $2); print $2 * 1000}')
SHAS=$(openssl speed -multi "$(nproc)" -evp sha256 -bytes 1048576 -seconds 3 2>/dev/null | awk '/^sha256/ {sub("k", "", $2); print $2 * 1000}')
printf '%-44s %8s %8s %10s\n' job "wall s" "RSS MB" "ratio"
awk -v c="$(wall curl)" -v t="$(wall tessera)" -v r="$(rss tessera)" -v cr="$(rss curl)" 'BEGIN {
  printf "%-44s %8.2f %8.1f %10s\n", "curl -Z --parallel-max 8 + sync (ceiling)", c, cr / 1024, "1.00x"
  printf "%-44s %8.2f %8.1f %9.2fx\n", "tessera package", t, r / 1024, t / c
  printf "ratio package.package-vs-curl-sync %.4f\n", c / t }'   # for bench.sh --check: higher is better
awk -v c="$(wall curl-aes)" -v t="$(wall tessera-aes)" -v r="$(rss tessera-aes)" -v cr="$(rss curl-aes)" 'BEGIN {
  printf "%-44s %8.2f %8.1f %10s\n", "AES-128: curl -Z + sync of the ciphertext", c, cr / 1024, "1.00x"
  printf "%-44s %8.2f %8.1f %9.2fx\n", "AES-128: tessera package (decrypted, hashed)", t, r / 1024, t / c
  printf "ratio package.package-aes-vs-curl-sync %.4f\n", c / t }'
[ -z "${BEFORE:-}" ] || awk -v b="$(wall before)" -v t="$(wall tessera)" -v r="$(rss before)" -v c="$(wall curl)" 'BEGIN {
  printf "%-44s %8.2f %8.1f %9.2fx  (this build runs it %.2fx as fast as the older)\n", "tessera package (BEFORE)", b, r / 1024, b / c, b / t }'
awk -v v="$(wall verify)" -v b="$HASHED" -v s="$SHAS" -v r="$(rss verify)" -v n="$(nproc)" 'BEGIN {
  printf "%-44s %8.2f %8.1f %9.0f%%  (%.0f MB/s of %.0f MB/s, %d cores each)\n", "tessera verify-package vs openssl sha256 -multi", v, r / 1024, 100 * b / v / s, b / v / 1e6, s / 1e6, n
  printf "ratio package.verify-vs-openssl-sha256-multi %.4f\n", b / v / s }'
awk -v v="$(wall verify1)" -v b="$HASHED1" -v s="$SHA" -v r="$(rss verify1)" 'BEGIN {
  printf "%-44s %8.2f %8.1f %9.0f%%  (%.0f MB/s of %.0f MB/s, one file, one core)\n", "tessera verify-package (one file) vs openssl", v, r / 1024, 100 * b / v / s, b / v / 1e6, s / 1e6
  printf "ratio package.verify-one-file-vs-openssl-sha256 %.4f\n", b / v / s }'
