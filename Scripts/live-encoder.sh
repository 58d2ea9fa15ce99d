# Sourced by the gates: a real live source — ffmpeg's own HLS muxer in real time (-re), as a live
# service's packager writes it.
#
#   start_live_encoder <folder> <seconds> [fmp4]
#
# writes <folder>/master.m3u8 and two media playlists beside it: v0/ (320x180 H.264, 25 fps, a
# key frame a second) and v1/ (AAC, 48 kHz), a separate audio rendition in an audio group
# (-var_stream_map), 1 s segments (TS, or fMP4 with `fmp4`), a sliding window of four
# (delete_segments) with PROGRAM-DATE-TIME on every segment. Segment names restart at seg0 and the
# media sequence at 0 each time it starts (ffmpeg's defaults), as an encoder restarted in place
# does. It ends after <seconds> with EXT-X-ENDLIST; killed, its last playlists stay as they were.
# Sets ENCODER_PID once every playlist exists (within 10 s), else returns 1.
start_live_encoder() {
  local folder="$1" seconds="$2" kind="${3:-ts}"
  local segments=(-hls_segment_filename "$folder/v%v/seg%d.ts")
  [ "$kind" = fmp4 ] && segments=(-hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$folder/v%v/seg%d.m4s")
  mkdir -p "$folder/v0" "$folder/v1"
  rm -f "$folder/master.m3u8" "$folder/v0/index.m3u8" "$folder/v1/index.m3u8"
  ffmpeg -nostdin -hide_banner -loglevel error -re \
    -f lavfi -i testsrc2=size=320x180:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000 -t "$seconds" \
    -map 0:v -map 1:a -c:v libx264 -preset ultrafast -pix_fmt yuv420p -profile:v main -g 25 -keyint_min 25 -sc_threshold 0 \
    -b:v 300k -c:a aac -b:a 64k \
    -f hls -hls_time 1 -hls_list_size 4 -hls_flags delete_segments+program_date_time+independent_segments \
    -master_pl_name master.m3u8 -var_stream_map "v:0,agroup:aud a:0,agroup:aud,default:yes,language:en" \
    "${segments[@]}" "$folder/v%v/index.m3u8" > "$folder/encoder.log" 2>&1 &
  ENCODER_PID=$!
  for _ in $(seq 1 200); do
    [ -s "$folder/master.m3u8" ] && [ -s "$folder/v0/index.m3u8" ] && [ -s "$folder/v1/index.m3u8" ] && return 0
    kill -0 "$ENCODER_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "the live encoder did not start: $(head -3 "$folder/encoder.log")" >&2
  return 1
}
