#!/usr/bin/env bash
# Rebuilds Fixtures/ with the tested, deterministic ffmpeg recipes of
# ../shared/reference/media.md (§1.3) and writes Fixtures/manifest.json (path, sha256, bytes,
# how it was made, what it exercises). The fixtures are committed: tests never need ffmpeg.
# Output is byte-stable for one ffmpeg/x264 build (media.md F1-F3), and meant to be across CPUs:
# x264 runs with one thread and cpu-independent=1, which x264 documents as exact reproducibility
# across CPUs (without it, x264 chose CPU-dependent algorithms and another machine's fixtures
# were not reproduced here; only one CPU kind has checked the new ones); `--check` rebuilds into a
# temporary folder and reports whether this machine reproduces the committed bytes.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
bash "$HERE/Scripts/bootstrap.sh"
MODE="${1:-write}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/Fixtures"
mkdir -p "$OUT"

SRC_V="-f lavfi -i testsrc2=size=160x90:rate=25:duration=4"
SRC_A="-f lavfi -i sine=frequency=440:sample_rate=48000:duration=4"
VENC="-c:v libx264 -preset veryfast -profile:v main -bf 2 -pix_fmt yuv420p -threads 1 -x264-params cpu-independent=1 -g 25 -keyint_min 25 -sc_threshold 0 -b:v 60k -maxrate 60k -bufsize 120k"
AENC="-c:a aac -b:a 32k -ac 1"
BITEXACT="-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1 -map_chapters -1"
KEYHEX=00112233445566778899aabbccddeeff
FF="ffmpeg -hide_banner -nostdin -v error -y"
HLS_VOD="-f hls -hls_time 1 -hls_playlist_type vod"
write_key() { printf '\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff' > key.bin; }

declare -A MADE EXERCISES
stream() { # id, how, what
  MADE[$1]="$2"; EXERCISES[$1]="$3"; mkdir -p "$OUT/$1"; cd "$OUT/$1"
}

stream a_ts_vod "ffmpeg hls, 4 s 160x90@25 H.264 main (2 B-frames) + AAC mono, 1 s TS segments" \
  "TS VOD; clear reference of every AES-128 TS fixture"
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLS_VOD -hls_segment_filename 'seg_%03d.ts' index.m3u8

stream b_fmp4_video "ffmpeg hls fmp4, movflags=+cmaf, video only" "CMAF-style fMP4 VOD (video)"
$FF $SRC_V -map 0:v $VENC $BITEXACT $HLS_VOD -hls_segment_type fmp4 -hls_segment_options movflags=+cmaf \
  -hls_fmp4_init_filename init.mp4 -hls_segment_filename 'seg_%03d.m4s' index.m3u8

stream b_fmp4_audio "ffmpeg hls fmp4, movflags=+cmaf, AAC only" "CMAF-style fMP4 VOD (audio), 1.002667 s segments and a short tail"
$FF $SRC_A -map 0:a $AENC $BITEXACT $HLS_VOD -hls_segment_type fmp4 -hls_segment_options movflags=+cmaf \
  -hls_fmp4_init_filename init.mp4 -hls_segment_filename 'seg_%03d.m4s' index.m3u8

stream c_ts_aes_iv "ffmpeg hls -hls_key_info_file, explicit IV 000102...0f, key 00112233...ff" \
  "AES-128 TS with an explicit IV; decrypts to a_ts_vod's segments"
write_key; printf 'key.bin\nkey.bin\n000102030405060708090a0b0c0d0e0f\n' > keyinfo.txt
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLS_VOD -hls_key_info_file keyinfo.txt \
  -hls_segment_filename 'seg_%03d.ts' index.m3u8
rm keyinfo.txt

stream c_ts_aes_noiv "ffmpeg hls periodic_rekey -start_number 5, then the IV attribute and repeated KEY tags removed" \
  "AES-128 TS with the media-sequence IV (sequence 5..8); decrypts to a_ts_vod's segments"
write_key; printf 'key.bin\nkey.bin\n' > keyinfo.txt
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLS_VOD -hls_key_info_file keyinfo.txt \
  -hls_flags periodic_rekey -start_number 5 -hls_segment_filename 'seg_%03d.ts' ffmpeg.m3u8
awk '/^#EXT-X-KEY/ { if (k++) next; sub(/,IV=0x[0-9a-fA-F]+/, "") } 1' ffmpeg.m3u8 > index.m3u8
rm keyinfo.txt ffmpeg.m3u8

stream c_fmp4_aes "ffmpeg hls fmp4 (muxed A+V, -start_number 7), segments and init encrypted with openssl aes-128-cbc" \
  "AES-128 fMP4: media-sequence IVs 7..10, clear-init and encrypted-init playlists, clear references kept"
write_key
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLS_VOD -hls_segment_type fmp4 -start_number 7 \
  -hls_fmp4_init_filename clear_init.mp4 -hls_segment_filename 'clear_%03d.m4s' clear.m3u8
for f in clear_[0-9]*.m4s; do n=${f#clear_}; n=$((10#${n%.m4s}))
  openssl aes-128-cbc -e -K $KEYHEX -iv "$(printf '%032x' $n)" -in "$f" -out "enc_${f#clear_}"; done
sed -e 's/^clear_/enc_/' -e 's|^#EXT-X-MAP:.*|&\n#EXT-X-KEY:METHOD=AES-128,URI="key.bin"|' clear.m3u8 > enc_clearinit.m3u8
openssl aes-128-cbc -e -K $KEYHEX -iv 000102030405060708090a0b0c0d0e0f -in clear_init.mp4 -out enc_init.mp4
sed -e 's/^clear_/enc_/' -e 's|^#EXT-X-MAP:.*|#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x000102030405060708090a0b0c0d0e0f\n#EXT-X-MAP:URI="enc_init.mp4"\n#EXT-X-KEY:METHOD=AES-128,URI="key.bin"|' \
  clear.m3u8 > enc_encinit.m3u8

stream d_ts_single "ffmpeg hls single_file" "single-file TS with EXT-X-BYTERANGE; media.ts equals a_ts_vod's segments concatenated"
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLS_VOD -hls_flags single_file -hls_segment_filename media.ts index.m3u8

stream d_fmp4_single "ffmpeg hls fmp4 single_file" "single-file fMP4 with a byte-range EXT-X-MAP and EXT-X-BYTERANGE"
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLS_VOD -hls_segment_type fmp4 -hls_flags single_file \
  -hls_segment_filename media.mp4 index.m3u8

stream e_multivariant "ffmpeg hls var_stream_map: lo 160x90 / hi 320x180, AAC group, WebVTT (X-TIMESTAMP-MAP added)" \
  "multivariant playlist with an audio group and WebVTT subtitles"
printf 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nFirst cue\n\n00:00:01.500 --> 00:00:03.000\nSecond cue\n\n00:00:03.000 --> 00:00:04.000\nThird cue\n' > "$WORK/subs.vtt"
$FF -f lavfi -i testsrc2=size=160x90:rate=25:duration=4 -f lavfi -i testsrc2=size=320x180:rate=25:duration=4 \
  $SRC_A -i "$WORK/subs.vtt" -map 0:v -map 1:v -map 2:a -map 3:s -map 3:s \
  -c:v libx264 -preset veryfast -profile:v main -bf 2 -pix_fmt yuv420p -threads 1 -x264-params cpu-independent=1 -g 25 -keyint_min 25 -sc_threshold 0 \
  -b:v:0 60k -maxrate:v:0 60k -bufsize:v:0 120k -b:v:1 120k -maxrate:v:1 120k -bufsize:v:1 240k $AENC -c:s webvtt $BITEXACT \
  $HLS_VOD -master_pl_name master.m3u8 \
  -var_stream_map "v:0,s:0,agroup:aud,sgroup:subs,name:lo v:1,s:1,agroup:aud,sgroup:subs,name:hi a:0,agroup:aud,name:audio,default:yes,language:en" \
  -hls_segment_filename '%v/seg_%03d.ts' '%v/index.m3u8'
for f in lo/index*.vtt hi/index*.vtt; do sed -i '1a X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000' "$f"; done

stream g_discontinuity "three ffmpeg append_list runs: 160x90@25 main, 320x180@30 high + 44.1 kHz stereo, then +1000 s" \
  "EXT-X-DISCONTINUITY with DTS jumping back and forward, CC restarting, codec change"
HLSA="-f hls -hls_time 1 -hls_playlist_type vod -hls_flags append_list"
$FF -f lavfi -i testsrc2=size=160x90:rate=25:duration=2 -f lavfi -i sine=frequency=440:sample_rate=48000:duration=2 \
  -map 0:v -map 1:a $VENC $AENC $BITEXACT $HLSA -hls_segment_filename 'p1_%03d.ts' index.m3u8
$FF -f lavfi -i testsrc=size=320x180:rate=30:duration=2 -f lavfi -i sine=frequency=880:sample_rate=44100:duration=2 \
  -map 0:v -map 1:a -c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p -threads 1 -x264-params cpu-independent=1 -g 30 -sc_threshold 0 \
  -b:v 90k -maxrate 90k -bufsize 180k -c:a aac -b:a 48k -ac 2 $BITEXACT $HLSA -hls_segment_filename 'p2_%03d.ts' index.m3u8
$FF -f lavfi -i testsrc2=size=160x90:rate=25:duration=2 -f lavfi -i sine=frequency=440:sample_rate=48000:duration=2 \
  -map 0:v -map 1:a $VENC $AENC $BITEXACT -output_ts_offset 1000 $HLSA -hls_segment_filename 'p3_%03d.ts' index.m3u8

stream g_pts_wrap "as a_ts_vod with -output_ts_offset 95441" "PTS/DTS/PCR wrapping at 2^33 inside seg_001"
$FF $SRC_V $SRC_A -map 0:v -map 1:a $VENC $AENC $BITEXACT -output_ts_offset 95441 $HLS_VOD \
  -hls_segment_filename 'seg_%03d.ts' index.m3u8

# Proofs the fixtures' claims hold (media.md §1.2 "extra checks").
cd "$OUT"
cmp <(cat a_ts_vod/seg_*.ts) d_ts_single/media.ts
for s in c_ts_aes_iv c_ts_aes_noiv; do
  i=0
  for f in "$s"/seg_*.ts; do
    if [ "$s" = c_ts_aes_iv ]; then iv=000102030405060708090a0b0c0d0e0f; else iv=$(printf '%032x' $((i + 5))); fi
    openssl aes-128-cbc -d -K $KEYHEX -iv "$iv" -in "$f" | cmp - "a_ts_vod/seg_$(printf '%03d' $i).ts"
    i=$((i + 1))
  done
done

# The manifest.
{
  printf '{\n  "schema": 1,\n  "note": "Made by Scripts/make-fixtures.sh (ffmpeg %s); bytes are stable for one ffmpeg/x264 build.",\n  "files": [\n' \
    "$(ffmpeg -version | head -1 | awk '{print $3}')"
  first=1
  while IFS= read -r path; do
    id="${path%%/*}"
    [ $first -eq 1 ] || printf ',\n'
    first=0
    printf '    {"path": "%s", "sha256": "%s", "bytes": %s, "made": "%s", "exercises": "%s"}' \
      "$path" "$(sha256sum "$path" | cut -d' ' -f1)" "$(stat -c %s "$path")" "${MADE[$id]}" "${EXERCISES[$id]}"
  done < <(find . -type f ! -name manifest.json | sed 's|^\./||' | LC_ALL=C sort)
  printf '\n  ]\n}\n'
} > manifest.json

if [ "$MODE" = "--check" ]; then
  if diff -r "$OUT" "$HERE/Fixtures" >/dev/null; then echo "make-fixtures: this machine reproduces Fixtures/ exactly"
  else echo "make-fixtures: this machine's ffmpeg produces different bytes (see media.md F1-F3)"; exit 1; fi
else
  rm -rf "$HERE/Fixtures"
  cp -r "$OUT" "$HERE/Fixtures"
  echo "make-fixtures: wrote $(find "$HERE/Fixtures" -type f | wc -l) files, $(du -sb "$HERE/Fixtures" | cut -f1) bytes"
fi
