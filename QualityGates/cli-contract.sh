#!/usr/bin/env bash
# The CLI contract against a real origin (nginx-light on loopback, Range-capable): successful
# downloads equal the pinned clear reference; every failure exits 1 with exactly one error line,
# the last on stderr (progress, plan and retry lines may come before it), naming what failed, and
# leaves no file (and no staging file) behind; usage errors exit 2.
set -euo pipefail
BIN="$1"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
NGINX_PID=""
cleanup() { [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
mkdir -p "$WORK/srv/logs" "$WORK/srv/tmp" "$WORK/out" "$WORK/www"
# A private CA and a certificate for 127.0.0.1, for fetch over TLS (HTTP/2).
(cd "$WORK/srv" &&
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 \
    -subj '/CN=Tessera Gate CA' -addext basicConstraints=critical,CA:TRUE &&
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj '/CN=localhost' &&
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > ext.cnf &&
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile ext.cnf -out server.pem) >/dev/null 2>&1
PIN="sha256//$(openssl pkey -in "$WORK/srv/server.key" -pubout -outform DER | openssl dgst -sha256 -binary | base64)"
start_nginx() {
PORT=$((20000 + RANDOM % 30000)); TLS_PORT=$((PORT + 1))
# As root, nginx's workers would drop to www-data, which may not read the checkout (e.g. under
# /root): keep them as the invoking user.
USER_LINE=""
[ "$(id -u)" = 0 ] && USER_LINE="user $(id -un) $(id -gn);"
cat > "$WORK/srv/nginx.conf" <<CONF
$USER_LINE
worker_processes 1; daemon off; pid nginx.pid; error_log logs/error.log warn;
events { worker_connections 64; }
http { access_log off;
  client_body_temp_path tmp; proxy_temp_path tmp; fastcgi_temp_path tmp; uwsgi_temp_path tmp; scgi_temp_path tmp;
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; text/vtt vtt; application/octet-stream bin; }
  server { listen 127.0.0.1:$PORT; root $HERE/Fixtures; add_header Cache-Control no-cache;
    location /slow/ { alias $HERE/Fixtures/; limit_rate 16k; }
    location = /moved.m3u8 { return 302 /c_ts_aes_noiv/index.m3u8; }
    location = /busy.bin { add_header Retry-After 1 always; return 503; }
    location /work/ { alias $WORK/www/; limit_rate 16k; } }
  server { listen 127.0.0.1:$TLS_PORT ssl http2; ssl_certificate server.pem; ssl_certificate_key server.key; root $HERE/Fixtures; } }
CONF
(cd "$WORK/srv" && exec "$NGINX" -p "$WORK/srv/" -c nginx.conf 2>/dev/null) &
NGINX_PID=$!
for _ in $(seq 1 100); do
  # Ours only once nginx wrote its pid (it has bound both ports): a listener left on a port by
  # another process answers the connects too, while this nginx has exited.
  if [ "$(cat "$WORK/srv/nginx.pid" 2>/dev/null)" = "$NGINX_PID" ] &&
     (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && (exec 3<>/dev/tcp/127.0.0.1/$TLS_PORT) 2>/dev/null; then return 0; fi
  kill -0 "$NGINX_PID" 2>/dev/null || return 1   # port taken: nginx exited
  sleep 0.05
done
return 1
}
for _ in 1 2 3 4 5; do start_nginx && break; NGINX_PID=""; done
[ -n "$NGINX_PID" ] || { echo "cli-contract: nginx could not start" >&2; exit 1; }
ORIGIN="http://127.0.0.1:$PORT"
TLS_ORIGIN="https://127.0.0.1:$TLS_PORT"
REFERENCE="$(grep '"path": "d_ts_single/media.ts"' "$HERE/Fixtures/manifest.json" | sed 's/.*"sha256": "\([0-9a-f]*\)".*/\1/')"
pass=0; fail=0; skipped=0; players_skipped=0
ok()  { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1"; }
# A check that cannot run is never a pass: it says SKIPPED, and fails the gate unless the caller
# allowed skips (ALLOW_SKIPPED=1, or ALLOW_MISSING_PLAYERS=1 for a missing player).
skip() { skipped=$((skipped + 1)); echo "  SKIPPED: $1"; }
skip_player() { players_skipped=$((players_skipped + 1)); echo "  SKIPPED: $1"; }
FFMPEG="$(command -v ffmpeg || true)"

expect_success() { # name, url
  local out="$WORK/out/$1.ts"
  if "$BIN" download "$2" -o "$out" >/dev/null 2>"$WORK/err" && [ "$(sha256sum "$out" | cut -d' ' -f1)" = "$REFERENCE" ]; then
    ok "$1: equals the pinned clear reference"
  else bad "$1: $(cat "$WORK/err")"; fi
}
expect_failure() { # name, expected status, destination, args...
  local name="$1" status="$2" dest="$3"; shift 3
  set +e; "$BIN" "$@" >/dev/null 2>"$WORK/err"; local rc=$?; set -e
  local lines; lines=$(grep -c '^tessera: error: ' "$WORK/err")
  local leftovers; leftovers=$(find "$WORK/out" -name '*.tessera-partial' | wc -l)
  if [ "$rc" = "$status" ] && [ ! -e "$dest" ] && [ "$leftovers" = 0 ] && \
     { [ "$status" = 2 ] || { [ "$lines" = 1 ] && tail -1 "$WORK/err" | grep -q '^tessera: error: '; }; }; then
    ok "$name: exit $rc, $(grep -m1 '^tessera: error: ' "$WORK/err" || head -1 "$WORK/err")"
  else bad "$name: exit $rc (wanted $status), $lines stderr lines, leftovers $leftovers: $(head -3 "$WORK/err")"; fi
}

echo "gate: CLI contract against nginx at $ORIGIN"
expect_success aes_explicit_iv "$ORIGIN/c_ts_aes_iv/index.m3u8"
expect_success aes_sequence_iv "$ORIGIN/c_ts_aes_noiv/index.m3u8"
expect_success byte_ranges "$ORIGIN/d_ts_single/index.m3u8"
D="$WORK/out/x.ts"
expect_failure "unreachable URL" 1 "$D" download "http://127.0.0.1:9/index.m3u8" -o "$D"
expect_failure "404 playlist" 1 "$D" download "$ORIGIN/missing/index.m3u8" -o "$D"
expect_failure "not a playlist" 1 "$D" download "$ORIGIN/a_ts_vod/seg_000.ts" -o "$D"
expect_failure "variant with separate audio to a file assembled byte for byte" 1 "$WORK/out/x.bin" download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/x.bin"
touch "$WORK/out/plain"
expect_failure "unwritable destination" 1 "$WORK/out/plain/x.ts" download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/plain/x.ts"
expect_failure "--parallel 0" 2 "$D" download "$ORIGIN/a_ts_vod/index.m3u8" -o "$D" --parallel 0
expect_failure "bad --variant" 2 "$D" download "$ORIGIN/a_ts_vod/index.m3u8" -o "$D" --variant tallest
expect_failure "no -o" 2 "$D" download "$ORIGIN/a_ts_vod/index.m3u8"
expect_failure "not a URL" 2 "$D" download "file:///etc/passwd" -o "$D"
expect_failure "unknown command" 2 "$D" frobnicate
# inspect: 0 when the playlist parsed (diagnostics allowed), 1 when rejected, 2 on usage errors.
expect_status() { # name, expected status, args...
  local name="$1" status="$2"; shift 2
  set +e; "$BIN" "$@" >"$WORK/stdout" 2>"$WORK/err"; local rc=$?; set -e
  if [ "$rc" = "$status" ] && { [ "$status" != 1 ] || [ "$(wc -l < "$WORK/err")" = 1 ]; }; then ok "$name: exit $rc"
  else bad "$name: exit $rc (wanted $status): $(head -2 "$WORK/err")"; fi
}
expect_status "inspect file" 0 inspect "$HERE/Fixtures/e_multivariant/master.m3u8"
expect_status "inspect URL --json" 0 inspect "$ORIGIN/c_ts_aes_noiv/index.m3u8" --json
grep -q '"kind": "media"' "$WORK/stdout" && ok "inspect --json prints the contract" || bad "inspect --json output"
printf '#EXTM3U\n#EXT-X-TARGETDURATION:x\n' > "$WORK/bad.m3u8"
expect_status "inspect with diagnostics" 0 inspect "$WORK/bad.m3u8"
expect_status "inspect --strict rejects" 1 inspect "$WORK/bad.m3u8" --strict
expect_status "inspect not a playlist" 1 inspect "$HERE/Fixtures/a_ts_vod/seg_000.ts"
expect_status "inspect missing file" 1 inspect "$WORK/none.m3u8"
expect_status "inspect usage" 2 inspect
# graph: 0 when the presentation loaded (diagnostics allowed), 1 when it could not or --strict /
# --fail-on found such a diagnostic, 2 on usage errors.
expect_status "graph file" 0 graph "$HERE/Fixtures/e_multivariant/master.m3u8"
grep -q "rendition group AUDIO" "$WORK/stdout" && ok "graph prints the tree" || bad "graph tree: $(head -3 "$WORK/stdout")"
expect_status "graph URL --json" 0 graph "$ORIGIN/e_multivariant/master.m3u8" --json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert list(d)==["multivariant","playlists","selection","steering","diagnostics"] and len(d["playlists"])==5' "$WORK/stdout"; then
  ok "graph --json prints one document with every child"
else bad "graph --json output"; fi
expect_status "graph --strict with an error diagnostic" 1 graph "$HERE/Fixtures/e_multivariant/master.m3u8" --strict
expect_status "graph --fail-on warning" 1 graph "$HERE/Fixtures/e_multivariant/master.m3u8" --fail-on warning
expect_status "graph of a media playlist" 1 graph "$HERE/Fixtures/a_ts_vod/index.m3u8"
expect_status "graph missing file" 1 graph "$WORK/none.m3u8"
expect_status "graph usage" 2 graph
expect_status "graph bad --parallel" 2 graph "$WORK/none.m3u8" --parallel 0
expect_status "graph with selection flags" 0 graph "$HERE/Fixtures/e_multivariant/master.m3u8" --variant lowest --audio lang:en --subtitles name:subtitle_1 --json
if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["selection"]; assert s["variant"]==0 and s["audio"]==[0] and s["subtitles"]==[2] and s["reasons"], s' "$WORK/stdout"; then
  ok "graph --json selection: the variant, renditions and reasons"
else bad "graph selection: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["selection"])' "$WORK/stdout" 2>&1 | head -2)"; fi
printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000\ngone-hi.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=300000\ngone-lo.m3u8\n' > "$WORK/www/unloadable.m3u8"
expect_status "graph of variants that cannot be loaded" 0 graph "$ORIGIN/work/unloadable.m3u8"
if grep -q '^selection: none (pathway "."):$' "$WORK/stdout" && grep -q 'no variant of pathway "." could be loaded (2 refused), so nothing is selected' "$WORK/stdout" \
   && grep -q 'variant 0 refused: its playlist could not be loaded (http-status)' "$WORK/stdout"; then
  ok "graph selects nothing when no variant playlist loads, and says why"
else bad "graph selection of unloadable variants: $(grep -A3 '^selection' "$WORK/stdout")"; fi
expect_status "graph bad --audio" 2 graph "$HERE/Fixtures/e_multivariant/master.m3u8" --audio loud
expect_status "graph bad --video" 2 graph "$HERE/Fixtures/e_multivariant/master.m3u8" --video angles
# package and verify-package: a package of the origin's presentation is local and URL-free and
# verifies (ours, and coreutils' sha256sum -c); a tampered byte is found; failures leave nothing.
PK="$WORK/out/pkg"
expect_status "package" 0 package "$ORIGIN/e_multivariant/master.m3u8" -o "$PK" --subtitles all
if [ -f "$PK/master.m3u8" ] && (cd "$PK" && sha256sum -c --quiet manifest-sha256.txt) && ! grep -rqa "127.0.0.1" "$PK" \
   && [ -z "$(find "$WORK/out" -maxdepth 1 -name '.pkg*')" ]; then
  ok "package: local playlists, URL-free, sha256sum -c verifies it, nothing hidden left beside it"
else bad "package layout: $(ls -A "$WORK/out" | tr '\n' ' ')"; fi
expect_status "verify-package" 0 verify-package "$PK"
expect_status "verify-package --json" 0 verify-package "$PK" --json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verified"] and d["findings"] == [] and d["tracks"] == ["video","audio-1","subtitles-1","subtitles-2"]' "$WORK/stdout"; then
  ok "verify-package --json: verified, four tracks"
else bad "verify-package --json: $(head -c 300 "$WORK/stdout")"; fi
expect_status "verify-package --media" 0 verify-package "$PK" --media
grep -q "every media file valid" "$WORK/stdout" && ok "verify-package --media validates every media file" || bad "verify-package --media: $(cat "$WORK/stdout")"
# serve: a second loopback host; a decoded control byte refused; a file rewritten in place at its
# size after verification never served under its identity.
cp -r "$PK" "$WORK/out/served"
"$BIN" serve "$WORK/out/served" --host 127.0.0.2 --verify-media > "$WORK/serve.out" 2> "$WORK/serve.err" & SERVE=$!
for _ in $(seq 1 100); do [ -s "$WORK/serve.out" ] && break; sleep 0.05; done
SERVED="$(sed -n 's#^serving \(http://127\.0\.0\.2:[0-9]*\)/master\.m3u8$#\1#p' "$WORK/serve.out")"
if [ -n "$SERVED" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "$SERVED/video/seg_000.ts%00.m3u8")" = 400 ] \
   && [ "$(curl -s -o /dev/null -w '%{http_code}' "$SERVED/video/seg_000.ts")" = 200 ]; then
  ok "serve --host 127.0.0.2 --verify-media: serves there; a path with %00 gets 400"
else bad "serve --host 127.0.0.2: $(cat "$WORK/serve.out" "$WORK/serve.err")"; fi
python3 -c 'import sys; f=open(sys.argv[1], "r+b"); f.seek(1000); f.write(b"\xab" * 188)' "$WORK/out/served/video/seg_001.ts"
if [ "$(curl -s -o /dev/null -w '%{http_code}' "$SERVED/video/seg_001.ts")" = 404 ]; then
  kill -TERM "$SERVE"; wait "$SERVE" || true
  grep -q "^tessera serve: video/seg_001.ts changed after the package was verified" "$WORK/serve.err" \
    && ok "serve: a segment rewritten in place at its size gets 404 and one line: $(head -1 "$WORK/serve.err" | cut -c1-110)" \
    || bad "serve rewritten segment: $(cat "$WORK/serve.err")"
else kill -TERM "$SERVE"; wait "$SERVE" || true; bad "serve served a segment rewritten in place"; fi
printf 'x' >> "$PK/video/seg_000.ts"
expect_status "verify-package of a tampered package" 1 verify-package "$PK"
grep -q "^size-mismatch video/seg_000.ts" "$WORK/stdout" && ok "verify-package names the tampered file" || bad "verify-package tampered: $(head -3 "$WORK/stdout")"
expect_status "serve refuses a tampered package" 1 serve "$PK"
grep -q "is not a verified package" "$WORK/err" && ok "serve names why: $(cut -c1-100 "$WORK/err")" || bad "serve tampered: $(cat "$WORK/err")"
expect_status "serve --host 0.0.0.0 (not loopback)" 2 serve "$PK" --host 0.0.0.0
expect_status "serve --host 10.0.0.1 (not loopback)" 2 serve "$PK" --host 10.0.0.1
expect_status "serve usage" 2 serve
expect_status "verify-package of no package" 1 verify-package "$WORK/none"
expect_status "verify-package usage" 2 verify-package
set +e; "$BIN" package "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/dry-pkg" --iframes --dry-run > "$WORK/stdout" 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q '^dry run: 2 tracks' "$WORK/stdout" && [ ! -e "$WORK/out/dry-pkg" ]; then ok "package --dry-run: the plan, nothing written"
else bad "package --dry-run: exit $rc $(cat "$WORK/stdout" "$WORK/err")"; fi
if "$BIN" package "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/pkg-media" > /dev/null 2>"$WORK/err" && "$BIN" verify-package "$WORK/out/pkg-media" > /dev/null 2>&1 \
   && grep -q '^video/index.m3u8$' "$WORK/out/pkg-media/master.m3u8"; then ok "package of a plain media playlist: one variant, verified"
else bad "package of a media playlist: $(tail -2 "$WORK/err")"; fi
expect_failure "package into an existing folder" 1 "$WORK/out/pkg/video/x" package "$ORIGIN/e_multivariant/master.m3u8" -o "$PK"
expect_failure "package without -o" 2 "$WORK/out/pkg2" package "$ORIGIN/e_multivariant/master.m3u8"
expect_failure "package bad --subtitles" 2 "$WORK/out/pkg2" package "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/pkg2" --subtitles many
# watch: a finished playlist is one snapshot and exit 0; --json lines carry the contract's keys;
# an origin that never answers is retried and then exit 1 with one error line.
expect_status "watch a VOD playlist" 0 watch "$ORIGIN/a_ts_vod/index.m3u8"
grep -q "^msn 3  part -  4 segments  full  ENDLIST" "$WORK/stdout" && ok "watch prints the snapshot line" || bad "watch line: $(cat "$WORK/stdout")"
expect_status "watch --json" 0 watch "$ORIGIN/e_multivariant/master.m3u8" --json
if python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).readline()); assert d["endList"] and d["msn"] == 3 and d["part"] is None and d["mode"] == "full" and d["segments"] == 4 and d["health"] == [] and "time" in d' "$WORK/stdout"; then
  ok "watch --json: time, msn, part, mode, segments, endList, health"
else bad "watch --json: $(head -c 300 "$WORK/stdout")"; fi
set +e; "$BIN" watch "$ORIGIN/missing/live.m3u8" --outage-limit 1 --retries 0 > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q "^retry 1 in 0.25 s: " "$WORK/err" && tail -1 "$WORK/err" | grep -q "^tessera: error: .*could not be loaded for"; then ok "watch past the outage limit: retries said, then exit 1"
else bad "watch outage: exit $rc $(cat "$WORK/err")"; fi
expect_status "watch usage" 2 watch
expect_status "watch bad --duration" 2 watch "$ORIGIN/a_ts_vod/index.m3u8" --duration 0
# watch a Low-Latency origin in real time (the test-support tessera-live-origin, a part a second,
# ENDLIST after 4 s): the first load full, then one delta update per part, each one part on.
LIVE_ORIGIN="$(cd "$HERE" && swift build --show-bin-path)/tessera-live-origin"
[ -x "$LIVE_ORIGIN" ] || (cd "$HERE" && swift build --product tessera-live-origin >/dev/null)
"$LIVE_ORIGIN" --duration 4 --max-seconds 30 > "$WORK/live.out" 2>&1 &
LIVE_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/live.out" ] && break; sleep 0.05; done
expect_status "watch a live LL-HLS origin" 0 watch "$(awk '{print $3; exit}' "$WORK/live.out")" --json --duration 20
kill "$LIVE_PID" 2>/dev/null || true; wait "$LIVE_PID" 2>/dev/null || true
if python3 - "$WORK/stdout" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
edge = lambda r: (r["msn"] + 1) * 4 + (0 if r["part"] is None else r["part"] + 1)
assert len(rows) >= 4 and rows[0]["mode"] == "full" and rows[-1]["endList"], rows
assert all(r["mode"] == "delta" for r in rows[1:]), [r["mode"] for r in rows]
assert all(edge(b) - edge(a) == 1 for a, b in zip(rows[:-1], rows[1:-1])), [edge(r) for r in rows]
PY
then ok "watch follows a live origin to the part: full, then a delta update per part, ENDLIST"
else bad "watch live: $(head -c 600 "$WORK/stdout")"; fi
# record: a live origin of TS segments (2 s, a part a second) into a recording package that
# verifies; SIGINT ends a recording cleanly and commits it; nothing is left for a dead source.
# Its own output file: waiting on the watch origin's (already written) would read that one's
# line, or an empty file the new origin has just truncated.
"$LIVE_ORIGIN" --parts-per-segment 2 --media "$HERE/Fixtures/a_ts_vod" --extension ts --max-seconds 60 > "$WORK/live-record.out" 2>&1 &
LIVE_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/live-record.out" ] && break; sleep 0.05; done
LIVE_URL="$(awk '{print $3; exit}' "$WORK/live-record.out")"
expect_status "record --duration 4 --from start --json" 0 record "$LIVE_URL" -o "$WORK/out/rec" --duration 4 --from start --json
if python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); assert d["segments"] >= 2 and d["duration"] >= 4 and d["gaps"] == 0 and d["end"] == "duration", d' "$WORK/stdout" \
  && grep -q "^recorded: [0-9]* segments, [0-9.]* s, 0 gaps, [0-9]* bytes → $WORK/out/rec$" "$WORK/err"; then
  ok "record --json: the summary object on stdout, the recorded: line on stderr"
else bad "record --json: $(cat "$WORK/stdout") $(tail -2 "$WORK/err")"; fi
expect_status "verify-package of a recording" 0 verify-package "$WORK/out/rec"
# --parts: segments that complete after tune-in are written from their parts (the hinted part
# fetched before it is listed), the package verifies and lists no part.
expect_status "record --parts --preload-hints --json" 0 record "$LIVE_URL" -o "$WORK/out/rec-parts" --duration 6 --parts --preload-hints --json
if python3 -c 'import json,sys; p=json.loads(open(sys.argv[1]).read().splitlines()[-1])["parts"]; assert p["promoted"] >= 1 and p["fellBack"] == 0 and p["hintsConfirmed"] >= 1 and p["fetched"] >= 2, p' "$WORK/stdout" \
  && grep -q "^parts: [0-9]* fetched" "$WORK/err" && "$BIN" verify-package "$WORK/out/rec-parts" > /dev/null \
  && ! grep -q "EXT-X-PART\|PRELOAD-HINT" "$WORK/out/rec-parts/video/index.m3u8"; then
  ok "record --parts: $(grep -m1 -o '[0-9]* segments promoted' "$WORK/err") from their parts, verified, no part in the package"
else bad "record --parts: $(tail -c 400 "$WORK/stdout") $(grep -m3 -E 'parts|error' "$WORK/err")"; fi
set +e; "$BIN" record "$LIVE_URL" -o "$WORK/out/rec-int" > "$WORK/stdout" 2> "$WORK/err" & REC=$!
for _ in $(seq 1 200); do grep -q "segments" "$WORK/err" 2>/dev/null && break; sleep 0.05; done
kill -INT "$REC"; wait "$REC"; rc=$?; set -e
if [ "$rc" = 0 ] && grep -q "^recorded: " "$WORK/stdout" && "$BIN" verify-package "$WORK/out/rec-int" > /dev/null; then ok "record ended by SIGINT: exit 0, committed, verified"
else bad "record SIGINT: exit $rc $(cat "$WORK/stdout") $(tail -2 "$WORK/err")"; fi
# kill -9 mid-recording, then the same command line again: it resumes from the checkpoint
# (the files kept, verified), continues, and commits a package that verifies.
"$BIN" record "$LIVE_URL" -o "$WORK/out/rec-kill" --from start > /dev/null 2>&1 & REC=$!
for _ in $(seq 1 400); do [ "$(ls "$WORK/out/.rec-kill.tessera-partial/video" 2>/dev/null | wc -l)" -ge 8 ] && break; sleep 0.05; done
kill -9 "$REC"; wait "$REC" 2>/dev/null || true
set +e; "$BIN" record "$LIVE_URL" -o "$WORK/out/rec-kill" --from start --duration 20 --resume > "$WORK/stdout" 2> "$WORK/err"; rc=$?; set -e
if [ "$rc" = 0 ] && grep -q "^resuming: [0-9]* segments" "$WORK/err" && "$BIN" verify-package "$WORK/out/rec-kill" > /dev/null \
  && [ ! -e "$WORK/out/.rec-kill.tessera-partial" ]; then ok "record after kill -9: resumed from the checkpoint, committed, verified"
else bad "record resume after kill -9: exit $rc $(grep -m2 -E 'resuming|starting over|error' "$WORK/err")"; fi
expect_failure "record --resume with nothing to resume" 1 "$WORK/out/rec-none" record "$LIVE_URL" -o "$WORK/out/rec-none" --resume
# rolling retention and a snapshot at SIGUSR1: the oldest media evicted while recording, the
# snapshot a verified package of its own beside the recording.
set +e; "$BIN" record "$LIVE_URL" -o "$WORK/out/rec-roll" --from start --rolling 4 --duration 16 --json > "$WORK/stdout" 2> "$WORK/err" & REC=$!
for _ in $(seq 1 400); do grep -q "segments" "$WORK/err" 2>/dev/null && break; sleep 0.05; done
kill -USR1 "$REC"; wait "$REC"; rc=$?; set -e
if [ "$rc" = 0 ] && python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); assert d["evicted"] >= 1 and d["snapshots"] == 1 and d["duration"] <= 4, d' "$WORK/stdout" \
  && "$BIN" verify-package "$WORK/out/rec-roll" > /dev/null && "$BIN" verify-package "$WORK/out/rec-roll.snapshot-1" > /dev/null \
  && grep -q "^snapshot: $WORK/out/rec-roll.snapshot-1 " "$WORK/err"; then
  ok "record --rolling with SIGUSR1: the oldest evicted, a snapshot published and verified beside it"
else bad "record --rolling/SIGUSR1: exit $rc $(tail -c 400 "$WORK/stdout") $(grep -m3 -E 'snapshot|error' "$WORK/err")"; fi
kill "$LIVE_PID" 2>/dev/null || true; wait "$LIVE_PID" 2>/dev/null || true
# A volume that fills mid-recording (RLIMIT_FSIZE: a write past 6 KiB fails, as on a full disk;
# SIGXFSZ ignored so the write returns its error): the recording fails typed with nothing at the
# destination but its checkpoints kept; the same command with room resumes and commits.
mkdir -p "$WORK/tiny-media"
# (Five packets of a real segment each: small, and valid MPEG-TS, as a recording checks.)
for n in 0 1 2 3; do head -c 940 "$HERE/Fixtures/a_ts_vod/seg_00$n.ts" > "$WORK/tiny-media/seg_$n.ts"; done
"$LIVE_ORIGIN" --parts-per-segment 1 --published 6 --media "$WORK/tiny-media" --extension ts --max-seconds 60 > "$WORK/tiny.out" 2>&1 &
TINY_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/tiny.out" ] && break; sleep 0.05; done
TINY_URL="$(awk '{print $3; exit}' "$WORK/tiny.out")"
set +e; ( trap '' XFSZ; ulimit -f 6; exec "$BIN" record "$TINY_URL" -o "$WORK/out/rec-full" --from start --duration 40 ) > /dev/null 2> "$WORK/err"; rc=$?; set -e
if [ "$rc" = 1 ] && grep -q "^tessera: error: " "$WORK/err" && [ ! -e "$WORK/out/rec-full" ] && [ -e "$WORK/out/.rec-full.tessera-timeline" ]; then
  ok "record on a volume that fills: exit 1, $(grep -m1 -o 'error: [^:]*' "$WORK/err"), nothing committed, the checkpoints kept"
else bad "record on a full volume: exit $rc $(tail -2 "$WORK/err") $(ls -a "$WORK/out" | tr '\n' ' ')"; fi
set +e; "$BIN" record "$TINY_URL" -o "$WORK/out/rec-full" --from start --duration 40 > "$WORK/stdout" 2> "$WORK/err"; rc=$?; set -e
if [ "$rc" = 0 ] && grep -q "^resuming: [1-9][0-9]* segments" "$WORK/err" && "$BIN" verify-package "$WORK/out/rec-full" > /dev/null; then
  ok "record after the volume had room again: resumed from the checkpoint, committed, verified"
else bad "record resume after a full volume: exit $rc $(grep -m2 -E 'resuming|starting over|error' "$WORK/err")"; fi
kill "$TINY_PID" 2>/dev/null || true; wait "$TINY_PID" 2>/dev/null || true
expect_failure "record of a dead origin" 1 "$WORK/out/rec-dead" record "http://127.0.0.1:9/live.m3u8" -o "$WORK/out/rec-dead" --retries 0
expect_failure "record without -o" 2 "$WORK/out/rec-x" record "$ORIGIN/a_ts_vod/index.m3u8"
expect_failure "record --from later" 2 "$WORK/out/rec-x" record "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/rec-x" --from later
# --interstitials: a live origin whose every other segment starts an interstitial of the
# fixture VOD presentation; the kept ranges name a local package of it, the whole verifies.
"$LIVE_ORIGIN" --parts-per-segment 2 --media "$HERE/Fixtures/a_ts_vod" --extension ts --max-seconds 60 \
  --interstitial-uri "$ORIGIN/a_ts_vod/index.m3u8" > "$WORK/live-ads.out" 2>&1 &
ADS_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/live-ads.out" ] && break; sleep 0.05; done
ADS_URL="$(awk '{print $3; exit}' "$WORK/live-ads.out")"
expect_status "record --interstitials --json" 0 record "$ADS_URL" -o "$WORK/out/rec-ads" --duration 6 --interstitials --json
if python3 -c 'import json,sys; i=json.loads(open(sys.argv[1]).read().splitlines()[-1])["interstitials"]; assert i["kept"] >= 1 and i["omitted"] == 0 and i["assets"] == 1, i' "$WORK/stdout" \
  && grep -q "^interstitials: [0-9]* kept" "$WORK/err" && "$BIN" verify-package "$WORK/out/rec-ads" > /dev/null \
  && grep -q 'X-ASSET-URI="../interstitials/[0-9a-f]*/asset/master.m3u8"' "$WORK/out/rec-ads/video/index.m3u8" \
  && ! grep -q "127.0.0.1" "$WORK/out/rec-ads/video/index.m3u8"; then
  ok "record --interstitials: $(grep -m1 -o '[0-9]* kept' "$WORK/err") ranges naming a local package of the asset, verified through it"
else bad "record --interstitials: $(tail -c 400 "$WORK/stdout") $(grep -m3 -E 'interstitial|error' "$WORK/err")"; fi
kill "$ADS_PID" 2>/dev/null || true
# record --channels: three channels in one process (two of the live origin, one dead) with the
# status server, seen by curl and rendered by headless Chromium; SIGHUP removes one channel and
# adds another; SIGINT commits every channel; kill -9, then the same command resumes each; a
# second process on the same list finds every channel's destination busy; the status server
# binds loopback only.
"$LIVE_ORIGIN" --parts-per-segment 2 --media "$HERE/Fixtures/a_ts_vod" --extension ts --max-seconds 120 > "$WORK/live-channels.out" 2>&1 &
CHANNELS_ORIGIN_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/live-channels.out" ] && break; sleep 0.05; done
CH_URL="$(awk '{print $3; exit}' "$WORK/live-channels.out")"
CH="$WORK/out/channels"
CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
printf '# the contract'"'"'s channels\none %s\ntwo %s --from start\ndead http://127.0.0.1:9/live.m3u8 --retries 0\n' "$CH_URL" "$CH_URL" > "$WORK/channels.txt"
set +e; "$BIN" record --channels "$WORK/channels.txt" -o "$CH/a" --status 127.0.0.1:0 --json > "$WORK/ch.out" 2> "$WORK/ch.err" & CHREC=$!; set -e
for _ in $(seq 1 300); do grep -q '"channel":"one","event":"progress"' "$WORK/ch.out" 2>/dev/null && grep -q '^dead: failed' "$WORK/ch.err" && break; sleep 0.05; done
STATUS_URL="$(grep -m1 -o 'http://127.0.0.1:[0-9]*/' "$WORK/ch.err" || true)"
if [ -n "$STATUS_URL" ] && curl -s "${STATUS_URL}status" > "$WORK/status.json" \
  && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c={x["name"]: x for x in d["channels"]}
assert sorted(c) == ["dead", "one", "two"], c
assert c["one"]["state"] == "recording" and c["one"]["segments"] >= 1 and len(c["one"]["health"]["strip"]) == 60, c["one"]
assert c["dead"]["state"] in ("retrying", "recording") and c["dead"]["errors"] >= 1 and c["dead"]["lastErrorCode"] == "fetch-failed", c["dead"]
assert "?" not in c["one"]["source"]' "$WORK/status.json" && curl -s "$STATUS_URL" | grep -q '<title>tessera channels</title>'; then
  ok "record --channels: /status has each channel (state, segments, an hour's health strip, the dead one's error), / the page"
else bad "record --channels /status: $(head -c 400 "$WORK/status.json" 2>/dev/null) $(tail -3 "$WORK/ch.err")"; fi
if [ -z "$CHROMIUM" ]; then skip "record --channels: the status page in headless Chromium (no chromium)"
else
  ARTIFACTS="${CONTRACT_ARTIFACTS:-$HERE/.build/gate-artifacts}"; mkdir -p "$ARTIFACTS"
  timeout 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$(mktemp -d)" --virtual-time-budget=5000 \
    --dump-dom "$STATUS_URL" > "$WORK/status.dom" 2>/dev/null || true
  timeout 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$(mktemp -d)" --virtual-time-budget=5000 \
    --window-size=1400,500 --screenshot="$ARTIFACTS/channels-status.png" "$STATUS_URL" > /dev/null 2>&1 || true
  if grep -q 'data-loaded="3"' "$WORK/status.dom" && [ "$(grep -o 'data-channel="[a-z]*"' "$WORK/status.dom" | sort | tr '\n' ' ')" = 'data-channel="dead" data-channel="one" data-channel="two" ' ] \
     && grep -q 'class="ok"' "$WORK/status.dom" && [ -s "$ARTIFACTS/channels-status.png" ]; then
    ok "record --channels: headless Chromium renders the status page, a row and a health strip a channel (screenshot: $ARTIFACTS/channels-status.png)"
  else bad "record --channels: the status page in Chromium: $(grep -o 'data-[a-z]*="[^"]*"' "$WORK/status.dom" | head -5 | tr '\n' ' ')"; fi
fi
printf 'one %s\nthree %s\ndead http://127.0.0.1:9/live.m3u8 --retries 0\n' "$CH_URL" "$CH_URL" > "$WORK/channels.txt"
kill -HUP "$CHREC"
for _ in $(seq 1 300); do grep -q '"channel":"two","event":"committed"' "$WORK/ch.out" 2>/dev/null && grep -q '"channel":"three","event":"progress"' "$WORK/ch.out" && break; sleep 0.05; done
if grep -q '^channel list reloaded: 3 channels (1 new, 0 changed, 1 removed)' "$WORK/ch.err" && grep -q '"channel":"two","event":"ended","state":"stopped"' "$WORK/ch.out"; then
  ok "record --channels: SIGHUP read the list again: two committed and stopped, three started, one went on"
else bad "record --channels SIGHUP: $(grep -E 'reloaded|two:|three:' "$WORK/ch.err" | tail -4)"; fi
set +e; kill -INT "$CHREC"; wait "$CHREC"; rc=$?; set -e
if [ "$rc" = 3 ] && tail -1 "$WORK/ch.out" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); s={c["name"]: c for c in d["channels"]}
assert d["event"] == "summary" and sorted(s) == ["dead", "one", "three"], d
assert s["one"]["committed"] == 1 and s["three"]["committed"] == 1 and s["dead"]["committed"] == 0 and s["dead"]["state"] == "stopped", s' \
  && for c in one two three; do "$BIN" verify-package "$CH/a/$c" > /dev/null || exit 1; done && [ ! -e "$CH/a/dead" ] \
  && grep -q '^channels: 2 of 3 recorded (2 recordings committed), 0 failed, 1 with nothing committed' "$WORK/ch.err"; then
  ok "record --channels ended by SIGINT: every channel committed and verified (two at its removal), nothing for the dead one, exit 3"
else bad "record --channels SIGINT: exit $rc $(tail -c 300 "$WORK/ch.out") $(tail -2 "$WORK/ch.err")"; fi
printf 'one %s --from start\ntwo %s --from start\n' "$CH_URL" "$CH_URL" > "$WORK/channels.txt"
"$BIN" record --channels "$WORK/channels.txt" -o "$CH/b" --duration 24 > /dev/null 2>&1 & CHREC=$!
for _ in $(seq 1 400); do [ "$(ls "$CH/b/.one.tessera-partial/video" 2>/dev/null | wc -l)" -ge 8 ] && [ "$(ls "$CH/b/.two.tessera-partial/video" 2>/dev/null | wc -l)" -ge 8 ] && break; sleep 0.05; done
kill -9 "$CHREC" 2>/dev/null || true; wait "$CHREC" 2>/dev/null || true
set +e; "$BIN" record --channels "$WORK/channels.txt" -o "$CH/b" --duration 24 > "$WORK/ch.out" 2> "$WORK/ch.err"; rc=$?; set -e
if [ "$rc" = 0 ] && grep -q '^one: resuming: [0-9]* segments' "$WORK/ch.err" && grep -q '^two: resuming: [0-9]* segments' "$WORK/ch.err" \
  && "$BIN" verify-package "$CH/b/one" > /dev/null && "$BIN" verify-package "$CH/b/two" > /dev/null && [ ! -e "$CH/b/.one.tessera-partial" ]; then
  ok "record --channels after kill -9: the same command resumed every channel from its own checkpoint, committed, verified"
else bad "record --channels resume after kill -9: exit $rc $(grep -E 'resuming|starting over|error|failed' "$WORK/ch.err" | head -4)"; fi
"$BIN" record --channels "$WORK/channels.txt" -o "$CH/c" > /dev/null 2>&1 & CHREC=$!
for _ in $(seq 1 300); do [ -e "$CH/c/.one.tessera-partial" ] && [ -e "$CH/c/.two.tessera-partial" ] && break; sleep 0.05; done
set +e; "$BIN" record --channels "$WORK/channels.txt" -o "$CH/c" > "$WORK/ch.out" 2> "$WORK/ch.err"; rc=$?; set -e
kill -INT "$CHREC"; wait "$CHREC" 2>/dev/null || true
if [ "$rc" = 1 ] && [ "$(grep -c 'failed (destination-busy)' "$WORK/ch.err")" = 2 ] && grep -q 'not tried again' "$WORK/ch.err"; then
  ok "record --channels: a second process on the same channels finds each destination busy (exit 1), never tried again"
else bad "record --channels twice on one folder: exit $rc $(tail -3 "$WORK/ch.err")"; fi
kill "$CHANNELS_ORIGIN_PID" 2>/dev/null || true
expect_failure "record --channels --status on a non-loopback address" 2 "$WORK/out/ch-x" record --channels "$WORK/channels.txt" -o "$WORK/out/ch-x" --status 0.0.0.0:8090
printf 'one https://a.example/x.m3u8 --json\n' > "$WORK/channels-bad.txt"
expect_failure "record --channels with a whole-command flag on a line" 2 "$WORK/out/ch-x" record --channels "$WORK/channels-bad.txt" -o "$WORK/out/ch-x"
expect_failure "record --preload-hints without --parts" 2 "$WORK/out/rec-x" record "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/rec-x" --preload-hints
expect_failure "record --rolling with --rolling-bytes" 2 "$WORK/out/rec-x" record "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/rec-x" --rolling 4 --rolling-bytes 9
expect_status "download --audio with a .bin output (the variant's stream byte for byte)" 2 download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/x.bin" --audio all
expect_status "download --format mp4 with a .ts output (the extension contradicts it)" 2 download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/x.ts" --format mp4
expect_status "download --subtitle-format with a .bin output (no subtitle files)" 2 download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/x.bin" --subtitle-format srt
expect_status "download --allow-gaps with a .bin output (assembled byte for byte)" 2 download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/x.bin" --allow-gaps
expect_status "download --embed-subtitles with a .ts output (a transport stream carries no timed text)" 2 download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/x.ts" --embed-subtitles
expect_status "download --fragmented with a .ts output (it lays out an MP4)" 2 download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/x.ts" --fragmented
expect_status "download --subtitles none with a .srt output" 2 download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/x.srt" --subtitles none
expect_status "download --codecs excluding every variant" 1 download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/x.ts" --codecs hvc1 --dry-run
touch "$WORK/out/exists.ts"
set +e; "$BIN" download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/exists.ts" >/dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && [ ! -s "$WORK/out/exists.ts" ]; then ok "existing destination: untouched, $(cat "$WORK/err")"; else bad "existing destination"; fi
# fetch: one request through the client pipeline; the body to stdout or atomically to -o.
SEG="a_ts_vod/seg_000.ts"
SEG_SHA="$(sha256sum "$HERE/Fixtures/$SEG" | cut -d' ' -f1)"
expect_fetch() { # name, sha256 of the output file, args...
  local name="$1" sha="$2"; shift 2
  rm -f "$WORK/out/f.bin"
  if "$BIN" fetch "$@" -o "$WORK/out/f.bin" >/dev/null 2>"$WORK/err" && [ "$(sha256sum "$WORK/out/f.bin" | cut -d' ' -f1)" = "$sha" ]; then
    ok "fetch $name"
  else bad "fetch $name: $(head -2 "$WORK/err")"; fi
}
expect_fetch "over http with --allow-http" "$SEG_SHA" "$ORIGIN/$SEG" --allow-http
if "$BIN" fetch "$ORIGIN/$SEG" --allow-http > "$WORK/out/stdout.bin" 2>"$WORK/err" \
  && [ "$(sha256sum "$WORK/out/stdout.bin" | cut -d' ' -f1)" = "$SEG_SHA" ]; then
  ok "fetch to stdout: the body's exact bytes"
else bad "fetch to stdout: $(head -2 "$WORK/err")"; fi
# A reader that went away (a pipe whose read end is closed): one error naming the output, exit 1,
# instead of the body fetched on into nothing.
if python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, timeout=60)
err = p.stderr.decode()
sys.exit(0 if p.returncode == 1 and "standard output" in err and err.count("error:") == 1 else 1)' \
  "$BIN" fetch "$ORIGIN/$SEG" --allow-http 2>"$WORK/err"; then
  ok "fetch to a pipe whose reader is gone: exit 1, one error naming standard output"
else bad "fetch to a closed pipe: $(head -2 "$WORK/err")"; fi
# --aws-sigv4 as curl spells it, checked by a server that signs the same request with botocore;
# the secret and the session token appear in no event line.
python3 "$HERE/QualityGates/SigV4/verifier.py" AKIDEXAMPLE 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' eu-west-1 s3 > "$WORK/sigv4.port" 2> "$WORK/sigv4.err" &
SIGV4_PID=$!
for _ in $(seq 1 100); do [ -s "$WORK/sigv4.port" ] && break; sleep 0.05; done
set +e; "$BIN" fetch "http://127.0.0.1:$(head -1 "$WORK/sigv4.port")/bucket/my%20key.txt?versionId=7&acl" --allow-http --events \
  --aws-sigv4 aws:amz:eu-west-1:s3 --user 'AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' -H 'x-amz-security-token: SESSIONTOKENEXAMPLE' \
  > "$WORK/stdout" 2> "$WORK/err"; rc=$?; set -e
if [ "$rc" = 0 ] && grep -qx "signature verified" "$WORK/stdout" && ! grep -q "wJalrXUtnFEMI\|SESSIONTOKENEXAMPLE" "$WORK/err"; then
  ok "fetch --aws-sigv4 --user: the signature botocore makes of the same request; no secret or session token in the events"
else bad "fetch --aws-sigv4: exit $rc $(head -3 "$WORK/stdout") $(grep -m2 -o 'wJalr[^\"]*\|SESSIONTOKEN[^\"]*' "$WORK/err") $(tail -2 "$WORK/sigv4.err")"; fi
kill "$SIGV4_PID" 2>/dev/null || true
# tessera ws against the Python `websockets` echo server: lines in, the same lines out, a normal
# close on end of input; a server's close with another code is an error said once.
python3 "$HERE/QualityGates/WebSocket/echo_server.py" > "$WORK/ws.port" 2> "$WORK/ws.err" &
WS_PID=$!
for _ in $(seq 1 100); do [ -s "$WORK/ws.port" ] && break; sleep 0.05; done
WS_URL="ws://127.0.0.1:$(head -1 "$WORK/ws.port")/feed"
{ echo "hello"; echo "wörld ☃"; head -c 100000 /dev/zero | tr '\0' 'x'; echo; } > "$WORK/ws.in"
set +e; "$BIN" ws "$WS_URL" --allow-http -H 'X-Client: contract' < "$WORK/ws.in" > "$WORK/stdout" 2> "$WORK/err"; rc=$?; set -e
if [ "$rc" = 0 ] && cmp -s "$WORK/ws.in" "$WORK/stdout" && [ ! -s "$WORK/err" ]; then
  ok "ws: three lines (one of 100 kB) sent as text messages and echoed one per line; exit 0 on the normal close"
else bad "ws: exit $rc $(head -c 200 "$WORK/stdout") $(head -3 "$WORK/err") $(tail -2 "$WORK/ws.err")"; fi
set +e; printf 'one\nclose:4001\n' | "$BIN" ws "$WS_URL" --allow-http > "$WORK/stdout" 2> "$WORK/err"; rc=$?; set -e
if [ "$rc" = 1 ] && [ "$(cat "$WORK/stdout")" = "one" ] && grep -q '^tessera: error: the WebSocket ended: closed-by-server (4001)' "$WORK/err"; then
  ok "ws: the server's close 4001 ends it with exit 1, said on stderr"
else bad "ws server close: exit $rc $(head -2 "$WORK/stdout") $(head -3 "$WORK/err")"; fi
kill "$WS_PID" 2>/dev/null || true
expect_failure "ws of a plain ws:// URL without --allow-http" 2 "$WORK/out/x" ws "$WS_URL"
expect_failure "ws to a port nobody listens on" 1 "$WORK/out/x" ws "ws://127.0.0.1:9/" --allow-http
# Lines waiting on standard input when the connection is refused: exit 1 every time, never a
# trap (the input reader's semaphore used to go while the lines it had room for were untaken:
# libdispatch traps on that, about one run in fourteen).
codes=""
for _ in $(seq 1 30); do
  set +e; "$BIN" ws "ws://127.0.0.1:9/" --allow-http < "$WORK/ws.in" > /dev/null 2>&1; codes+="$? "; set -e
done
if [ -z "$(tr ' ' '\n' <<< "$codes" | grep -v '^1$' | grep -v '^$')" ]; then ok "ws refused with lines waiting on standard input: exit 1 in 30 runs of 30"
else bad "ws refused with lines waiting: exit codes $codes"; fi
expect_failure "ws of an http URL" 2 "$WORK/out/x" ws "http://127.0.0.1:9/"
expect_failure "fetch --aws-sigv4 without --user" 2 "$WORK/out/x" fetch "$ORIGIN/$SEG" --allow-http --aws-sigv4 aws:amz:us-east-1:s3
expect_failure "fetch --aws-sigv4 of a bad scope" 2 "$WORK/out/x" fetch "$ORIGIN/$SEG" --allow-http --aws-sigv4 aws:amz:us-east-1 --user a:b
expect_fetch "over TLS with --cacert" "$SEG_SHA" "$TLS_ORIGIN/$SEG" --cacert "$WORK/srv/ca.pem"
expect_fetch "with the right --pin among two" "$SEG_SHA" "$TLS_ORIGIN/$SEG" --cacert "$WORK/srv/ca.pem" --pin "sha256//$(head -c32 /dev/zero | base64)" --pin "$PIN"
"$BIN" fetch "$TLS_ORIGIN/$SEG" --cacert "$WORK/srv/ca.pem" -r 188-375 > "$WORK/range.bin" 2>"$WORK/err"
if cmp -s "$WORK/range.bin" <(tail -c +189 "$HERE/Fixtures/$SEG" | head -c 188); then ok "fetch -r to stdout: exact bytes 188-375"; else bad "fetch -r: $(head -2 "$WORK/err")"; fi
"$BIN" fetch "$ORIGIN/$SEG" --allow-http --events -H 'X-Trace: 1' > /dev/null 2>"$WORK/err"
if grep -q '"kind":"start"' "$WORK/err" && grep -q '"kind":"finish"' "$WORK/err" && ! grep -q 'X-Trace' "$WORK/err"; then ok "fetch --events: JSON lines, no headers"; else bad "fetch --events: $(head -3 "$WORK/err")"; fi
F="$WORK/out/f.bin"; rm -f "$F"
expect_failure "fetch untrusted TLS" 1 "$F" fetch "$TLS_ORIGIN/$SEG" -o "$F"
expect_failure "fetch wrong pin" 1 "$F" fetch "$TLS_ORIGIN/$SEG" --cacert "$WORK/srv/ca.pem" --pin "sha256//$(head -c32 /dev/zero | base64)" -o "$F"
expect_failure "fetch 404" 1 "$F" fetch "$ORIGIN/missing.bin" --allow-http -o "$F"
expect_failure "fetch http without --allow-http" 2 "$F" fetch "$ORIGIN/$SEG" -o "$F"
expect_failure "fetch bad header" 2 "$F" fetch "$TLS_ORIGIN/$SEG" -H 'no colon' -o "$F"
expect_failure "fetch bad range" 2 "$F" fetch "$TLS_ORIGIN/$SEG" -r 9-3 -o "$F"
# validate: 0 for a valid MPEG-TS file, 1 with the finding for a broken one, 2 on usage errors.
expect_status "validate a valid segment" 0 validate "$HERE/Fixtures/a_ts_vod/seg_000.ts"
head -c 5000 "$HERE/Fixtures/a_ts_vod/seg_000.ts" > "$WORK/cut.ts"
set +e; "$BIN" validate "$WORK/cut.ts" --json > "$WORK/stdout" 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q '"id" : "ts-partial-packet"' "$WORK/stdout" && grep -q '"valid" : false' "$WORK/stdout"; then ok "validate --json a cut segment: exit 1, ts-partial-packet"
else bad "validate cut segment: exit $rc: $(head -5 "$WORK/stdout")"; fi
expect_status "validate usage" 2 validate
cat "$HERE/Fixtures/b_fmp4_video/init.mp4" "$HERE/Fixtures/b_fmp4_video/seg_000.m4s" "$HERE/Fixtures/b_fmp4_video/seg_001.m4s" > "$WORK/joined.mp4"
expect_status "validate fMP4 init + fragments" 0 validate "$WORK/joined.mp4"
expect_status "validate a WebVTT segment" 0 validate "$HERE/Fixtures/e_multivariant/lo/index1.vtt"
cat "$HERE/Fixtures/b_fmp4_video/init.mp4" "$HERE/Fixtures/b_fmp4_video/seg_001.m4s" "$HERE/Fixtures/b_fmp4_video/seg_000.m4s" > "$WORK/swapped.mp4"
set +e; "$BIN" validate "$WORK/swapped.mp4" > "$WORK/stdout" 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q "mp4-tfdt-overlap" "$WORK/stdout"; then ok "validate swapped fMP4 fragments: exit 1, mp4-tfdt-overlap"; else bad "validate swapped fMP4: exit $rc"; fi
# download: fMP4, dry run, resume after kill -9, admission, a full volume.
M="$WORK/out/video.mp4"
if "$BIN" download "$ORIGIN/b_fmp4_video/index.m3u8" -o "$M" >/dev/null 2>"$WORK/err" && "$BIN" validate "$M" >/dev/null; then
  ok "fMP4 download: one file, valid"
  if [ -z "$FFMPEG" ]; then
    if [ "${ALLOW_MISSING_PLAYERS:-0}" = 1 ]; then skip_player "ffmpeg decode of the fMP4 download: ffmpeg is not installed"
    else bad "ffmpeg decode of the fMP4 download: ffmpeg is not installed (ALLOW_MISSING_PLAYERS=1 to skip)"; fi
  elif [ -z "$("$FFMPEG" -nostdin -v error -i "$M" -f null - 2>&1)" ]; then ok "fMP4 download: ffmpeg decodes it without a message"
  else bad "fMP4 download: ffmpeg could not decode it cleanly"; fi
else bad "fMP4 download: $(head -2 "$WORK/err")"; fi
# download -o name.mp4 / name.ts: the variant and its separate audio rendition muxed by Tessera
# into one MP4, and into one MPEG-TS (which our validator passes); ffmpeg decodes each silently.
muxed() { # file, container named in the summary line
  local file="$1" container="$2"
  if "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$file" > "$WORK/stdout" 2>"$WORK/err" \
     && grep -q "^wrote $file: $container of video (100 pictures), audio (eng, 189 frames)" "$WORK/stdout" && "$BIN" validate "$file" > /dev/null \
     && [ -z "$(ls -A "$WORK/out" | grep '^\.movie')" ]; then
    ok "$container from a ladder with separate audio, valid: $(cut -c1-90 "$WORK/stdout")…"
    if [ -z "$FFMPEG" ]; then
      if [ "${ALLOW_MISSING_PLAYERS:-0}" = 1 ]; then skip_player "ffmpeg decode of the muxed $container: ffmpeg is not installed"
      else bad "ffmpeg decode of the muxed $container: ffmpeg is not installed (ALLOW_MISSING_PLAYERS=1 to skip)"; fi
    elif [ -z "$("$FFMPEG" -nostdin -v error -i "$file" -map 0 -f null - 2>&1)" ]; then ok "muxed $container: ffmpeg decodes both tracks without a message"
    else bad "muxed $container: ffmpeg could not decode it cleanly"; fi
  else bad "$container from a ladder with separate audio: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
}
# A muxed MP4's SHA-256 is read from the finished file on request (--sha256), and is the file's.
if "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/digest.mp4" --sha256 > "$WORK/stdout" 2>"$WORK/err" \
   && grep -q ", sha256 $(sha256sum "$WORK/out/digest.mp4" | cut -d' ' -f1)$" "$WORK/stdout" \
   && "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/nodigest.mp4" > "$WORK/stdout" 2>"$WORK/err" \
   && ! grep -q "sha256" "$WORK/stdout" && cmp -s "$WORK/out/digest.mp4" "$WORK/out/nodigest.mp4"; then
  ok "MP4 download --sha256: the file's own SHA-256 in the summary; without it none, and the same bytes"
else bad "MP4 download --sha256: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
rm -f "$WORK/out/digest.mp4" "$WORK/out/nodigest.mp4"
MOVIE="$WORK/out/movie.mp4"
muxed "$MOVIE" MP4
# .ts (or --format ts): muxed unless the tracks are a TS variant alone with its own audio, which
# stays its segments byte for byte.
muxed "$WORK/out/movie.ts" MPEG-TS
if "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/movie-ts.bin" --format ts --audio none > "$WORK/stdout" 2>"$WORK/err" \
   && grep -q 'MPEG-TS of video (100 pictures)$\|MPEG-TS of video (100 pictures),' "$WORK/stdout" && ! grep -q 'audio (' "$WORK/stdout"; then
  ok "--format ts --audio none: the pictures alone as MPEG-TS"
else bad "--format ts --audio none: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
expect_status "download -o .ts --dry-run of a ladder with separate audio: the muxed plan" 0 download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/dry.ts" --dry-run
grep -q "^dry run: 2 tracks" "$WORK/stdout" || bad "the .ts dry run names both tracks: $(head -2 "$WORK/stdout")"
if "$BIN" download "$ORIGIN/a_ts_vod/index.m3u8" -o "$WORK/out/whole.ts" > "$WORK/stdout" 2>"$WORK/err" && grep -q ': 4 segments, ' "$WORK/stdout" \
   && cmp -s "$WORK/out/whole.ts" <(cat "$HERE"/Fixtures/a_ts_vod/seg_00[0-3].ts); then
  ok "a TS media playlist to .ts: its segments byte for byte, as before"
else bad "a TS media playlist to .ts: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
if "$BIN" download "$ORIGIN/g_discontinuity/index.m3u8" -o "$WORK/out/joined.ts" > "$WORK/stdout" 2>"$WORK/err" \
   && grep -q 'MPEG-TS of video (160 pictures), audio (und, 278 frames)' "$WORK/stdout" && "$BIN" validate "$WORK/out/joined.ts" > /dev/null; then
  ok "a TS playlist with discontinuities (other resolutions) to .ts: muxed on one timeline, valid"
else bad "a TS playlist with discontinuities to .ts: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
# download -o name.srt / --format vtt: one subtitle track alone, on the playlist's timeline; beside
# a movie with --subtitle-format srt.
SRT="$WORK/out/subs.srt"
if "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$SRT" --subtitles name:subtitle_1 > "$WORK/stdout" 2>"$WORK/err" \
   && grep -q 'SubRip of subtitles (und, 3 cues)' "$WORK/stdout" && head -2 "$SRT" | grep -q '^00:00:00,080 --> 00:00:01,580$'; then
  ok "subtitles alone as .srt: $(cut -c1-80 "$WORK/stdout")…"
else bad "subtitles alone as .srt: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
if "$BIN" download "$ORIGIN/e_multivariant/lo/index_vtt.m3u8" -o "$WORK/out/subs-noext" --format vtt > "$WORK/stdout" 2>"$WORK/err" \
   && "$BIN" validate "$WORK/out/subs-noext" > /dev/null; then ok "a subtitles playlist with --format vtt: a valid WebVTT file"
else bad "--format vtt: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
expect_status "a subtitles playlist to a .ts: refused, naming -o .vtt or .srt" 1 download "$ORIGIN/e_multivariant/lo/index_vtt.m3u8" -o "$WORK/out/subs.ts"
grep -q "is a subtitles playlist" "$WORK/err" || bad "the refusal of a subtitles playlist to .ts says why: $(cat "$WORK/err")"
if "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/side.mp4" --subtitles all --subtitle-format srt > "$WORK/stdout" 2>"$WORK/err" \
   && [ -s "$WORK/out/side.subtitle_0.srt" ] && [ -s "$WORK/out/side.subtitle_1.srt" ]; then ok "MP4 with --subtitle-format srt: $(grep -o 'subtitles .*' "$WORK/stdout")"
else bad "MP4 with --subtitle-format srt: $(cat "$WORK/stdout" "$WORK/err" | tail -3)"; fi
set +e; "$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$WORK/out/dry.mp4" --audio none --dry-run > "$WORK/stdout" 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q '^dry run: 1 track' "$WORK/stdout" && [ ! -e "$WORK/out/dry.mp4" ]; then ok "MP4 --dry-run --audio none: $(head -1 "$WORK/stdout")"
else bad "MP4 --dry-run --audio none: exit $rc $(cat "$WORK/stdout" "$WORK/err" | head -3)"; fi
set +e; "$BIN" download "$ORIGIN/d_ts_single/index.m3u8" -o "$WORK/out/dry.ts" --dry-run > "$WORK/stdout" 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q '^dry run: mpeg-ts, 4 segments, 4 resources in 1 requests' "$WORK/stdout" && [ -z "$(ls -A "$WORK/out" | grep dry)" ]; then
  ok "--dry-run: $(cat "$WORK/stdout")"
else bad "--dry-run: exit $rc $(cat "$WORK/stdout" "$WORK/err")"; fi
K="$WORK/out/killed.ts"; CK="$WORK/out/.killed.ts.tessera-checkpoint"
"$BIN" download "$ORIGIN/slow/c_ts_aes_noiv/index.m3u8" -o "$K" --parallel 1 >/dev/null 2>&1 &
SLOW=$!
for _ in $(seq 1 400); do [ -f "$CK" ] && [ "$(wc -l < "$CK")" -ge 2 ] && break; sleep 0.05; done
set +e; "$BIN" download "$ORIGIN/c_ts_aes_noiv/index.m3u8" -o "$K" > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q "Another job is writing" "$WORK/err"; then ok "second process on one destination: refused"; else bad "admission: exit $rc $(cat "$WORK/err")"; fi
kill -9 $SLOW; wait $SLOW 2>/dev/null || true
set +e; "$BIN" download "$ORIGIN/slow/c_ts_aes_noiv/index.m3u8" -o "$K" > "$WORK/stdout" 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q "^resuming: " "$WORK/err" && [ "$(sha256sum "$K" | cut -d' ' -f1)" = "$REFERENCE" ] && [ ! -e "$CK" ]; then
  ok "kill -9 mid-download, then resume: byte-identical ($(grep '^resuming: ' "$WORK/err"))"
else bad "resume after kill -9: exit $rc $(cat "$WORK/err")"; fi
# package: kill -9 mid-package, a second process refused meanwhile, then a resume that gives the
# same files and manifest as an uninterrupted run.
PR="$WORK/out/pkg-reference"; PKK="$WORK/out/pkg-killed"; PCK="$WORK/out/.pkg-killed.tessera-checkpoint"
"$BIN" package "$ORIGIN/e_multivariant/master.m3u8" -o "$PR" > /dev/null 2>&1
"$BIN" package "$ORIGIN/slow/e_multivariant/master.m3u8" -o "$PKK" --parallel 1 >/dev/null 2>&1 &
SLOW=$!
for _ in $(seq 1 400); do [ -f "$PCK" ] && [ "$(wc -l < "$PCK")" -ge 3 ] && break; sleep 0.05; done
set +e; "$BIN" package "$ORIGIN/e_multivariant/master.m3u8" -o "$PKK" > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q "Another job is writing" "$WORK/err"; then ok "package: a second process on one destination is refused"; else bad "package admission: exit $rc $(cat "$WORK/err")"; fi
kill -9 $SLOW; wait $SLOW 2>/dev/null || true
if [ ! -e "$PKK" ]; then ok "package killed with -9: nothing at the destination"; else bad "package killed: the destination exists"; fi
set +e; "$BIN" package "$ORIGIN/slow/e_multivariant/master.m3u8" -o "$PKK" > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q "^resuming: " "$WORK/err" && diff -r "$PR" "$PKK" > /dev/null && [ ! -e "$PCK" ]; then
  ok "package kill -9 then resume: identical files and manifest ($(grep '^resuming: ' "$WORK/err"))"
else bad "package resume after kill -9: exit $rc $(tail -2 "$WORK/err"; diff -rq "$PR" "$PKK" 2>&1 | head -3)"; fi
# download -o movie.mp4: kill -9 mid-transfer, then a resume that writes the same bytes as an
# uninterrupted run.
MR="$WORK/out/movie-reference.mp4"; MK="$WORK/out/movie-killed.mp4"; MCK="$WORK/out/.movie-killed.mp4.tessera-checkpoint"
"$BIN" download "$ORIGIN/e_multivariant/master.m3u8" -o "$MR" > /dev/null 2>&1
"$BIN" download "$ORIGIN/slow/e_multivariant/master.m3u8" -o "$MK" --parallel 1 >/dev/null 2>&1 &
SLOW=$!
for _ in $(seq 1 400); do [ -f "$MCK" ] && [ "$(wc -l < "$MCK")" -ge 3 ] && break; sleep 0.05; done
kill -9 $SLOW; wait $SLOW 2>/dev/null || true
if [ ! -e "$MK" ]; then ok "MP4 download killed with -9: nothing at the destination"; else bad "MP4 download killed: the destination exists"; fi
set +e; "$BIN" download "$ORIGIN/slow/e_multivariant/master.m3u8" -o "$MK" > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q "^resuming: " "$WORK/err" && cmp -s "$MR" "$MK" && [ ! -e "$MCK" ] && [ -z "$(ls -A "$WORK/out" | grep '^\.movie-killed')" ]; then
  ok "MP4 download kill -9 then resume: byte-identical file, no hidden file left ($(grep '^resuming: ' "$WORK/err"))"
else bad "MP4 resume after kill -9: exit $rc $(tail -2 "$WORK/err")"; fi
# A source file that changes between runs (new ETag/Last-Modified from nginx): the resumed job
# notices at its next range of that file, discards the checkpoint and starts over by itself.
cp "$HERE/Fixtures/d_ts_single/media.ts" "$WORK/www/media.ts"
printf '#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1.0,\n#EXT-X-BYTERANGE:19740@0\nmedia.ts\n#EXTINF:1.0,\n#EXT-X-BYTERANGE:17860@37600\nmedia.ts\n#EXT-X-ENDLIST\n' > "$WORK/www/ranges.m3u8"
# (dd, not tail | head: under pipefail a reader that stops early fails the pipeline with SIGPIPE)
{ dd if="$WORK/www/media.ts" bs=64k count=19740 iflag=count_bytes status=none
  dd if="$WORK/www/media.ts" bs=64k skip=37600 count=17860 iflag=skip_bytes,count_bytes status=none; } > "$WORK/ranges.expected"
C="$WORK/out/changed.ts"; CC="$WORK/out/.changed.ts.tessera-checkpoint"
"$BIN" download "$ORIGIN/work/ranges.m3u8" -o "$C" --parallel 1 >/dev/null 2>&1 &
SLOW=$!
for _ in $(seq 1 400); do [ -f "$CC" ] && [ "$(wc -l < "$CC")" -ge 2 ] && break; sleep 0.05; done
kill -9 $SLOW; wait $SLOW 2>/dev/null || true
touch -d '2001-01-01 00:00:00' "$WORK/www/media.ts"
set +e; "$BIN" download "$ORIGIN/work/ranges.m3u8" -o "$C" > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 0 ] && grep -q "changed on the server" "$WORK/err" && cmp -s "$C" "$WORK/ranges.expected"; then
  ok "source file changed between runs: noticed by its validators, started over, exact ($(grep -m1 "^starting over" "$WORK/err" | cut -c1-90))"
else bad "changed source: exit $rc $(cat "$WORK/err")"; fi
if unshare -m true 2>/dev/null; then
  mkdir -p "$WORK/tiny"
  set +e
  unshare -m sh -c "mount -t tmpfs -o size=40k tessera-gate '$WORK/tiny' && '$BIN' download '$ORIGIN/d_ts_single/index.m3u8' -o '$WORK/tiny/a.ts'; echo \$? > '$WORK/rc1'; ls -A '$WORK/tiny' > '$WORK/left1'; '$BIN' download '$ORIGIN/a_ts_vod/index.m3u8' -o '$WORK/tiny/b.ts' --parallel 1; echo \$? > '$WORK/rc2'; ls -A '$WORK/tiny' > '$WORK/left2'" >/dev/null 2>"$WORK/err"
  set -e
  if [ "$(cat "$WORK/rc1")" = 1 ] && grep -q "needs about" "$WORK/err" && [ ! -s "$WORK/left1" ]; then ok "full volume, known size: refused before any media byte"; else bad "full volume (known): $(cat "$WORK/err")"; fi
  if [ "$(cat "$WORK/rc2")" = 1 ] && grep -q "no room" "$WORK/err" && ! grep -qx "b.ts" "$WORK/left2"; then ok "full volume mid-download: insufficient space, nothing at the destination"; else bad "full volume (mid-download): $(cat "$WORK/err" "$WORK/left2")"; fi
  mkdir -p "$WORK/tiny2"
  set +e
  unshare -m sh -c "mount -t tmpfs -o size=60k tessera-gate '$WORK/tiny2' && '$BIN' package '$ORIGIN/e_multivariant/master.m3u8' -o '$WORK/tiny2/pkg'; echo \$? > '$WORK/rc3'; ls -A '$WORK/tiny2' > '$WORK/left3'" >/dev/null 2>"$WORK/err"
  set -e
  if [ "$(cat "$WORK/rc3")" = 1 ] && tail -1 "$WORK/err" | grep -q "^tessera: error: " && ! grep -qx "pkg" "$WORK/left3"; then ok "package onto a full volume: one error line, nothing at the destination ($(tail -1 "$WORK/err" | cut -c1-90))"; else bad "package full volume: $(cat "$WORK/err" "$WORK/left3")"; fi
  # The segments fit; the muxed file does not: the volume fills while the movie is written.
  mkdir -p "$WORK/tiny3"
  set +e
  unshare -m sh -c "mount -t tmpfs -o size=160k tessera-gate '$WORK/tiny3' && '$BIN' download '$ORIGIN/e_multivariant/master.m3u8' -o '$WORK/tiny3/movie.mp4'; echo \$? > '$WORK/rc4'; ls -A '$WORK/tiny3' > '$WORK/left4'" >/dev/null 2>"$WORK/err"
  set -e
  if [ "$(cat "$WORK/rc4")" = 1 ] && tail -1 "$WORK/err" | grep -q "^tessera: error: " && ! grep -qx "movie.mp4" "$WORK/left4"; then ok "MP4 download onto a volume that fills while muxing: one error line, nothing at the destination ($(tail -1 "$WORK/err" | cut -c1-90))"; else bad "MP4 full volume: $(cat "$WORK/err" "$WORK/left4")"; fi
else
  skip "full volume, known size: no mount namespace here (unshare -m fails)"
  skip "full volume mid-download: no mount namespace here (unshare -m fails)"
  skip "package onto a full volume: no mount namespace here (unshare -m fails)"
fi
# Help, standard input, unknown formats, redirects, timeouts and retries.
for command in inspect graph download package verify-package serve watch record fetch validate demo; do
  set +e; "$BIN" "$command" --help > "$WORK/stdout" 2>&1; rc1=$?; "$BIN" help "$command" > "$WORK/stdout2" 2>&1; rc2=$?; set -e
  if [ $rc1 = 0 ] && [ $rc2 = 0 ] && cmp -s "$WORK/stdout" "$WORK/stdout2" && grep -q '^usage: tessera '"$command" "$WORK/stdout" \
     && grep -q '^example:' "$WORK/stdout" && { [ "$command" = validate ] || grep -q 'default' "$WORK/stdout"; }; then
    ok "$command --help and help $command: synopsis, flags with defaults, an example"
  else bad "$command --help: exit $rc1/$rc2: $(head -2 "$WORK/stdout")"; fi
done
if "$BIN" inspect - < "$HERE/Fixtures/a_ts_vod/index.m3u8" > "$WORK/stdout" 2>"$WORK/err" && grep -q "4 segments" "$WORK/stdout"; then
  ok "inspect - reads standard input"
else bad "inspect -: $(head -2 "$WORK/err" "$WORK/stdout")"; fi
printf 'hello\n' > "$WORK/hello.txt"
set +e; "$BIN" validate "$WORK/hello.txt" > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q "MPEG-TS, MP4 and WebVTT" "$WORK/err"; then ok "validate an unknown format: exit 1, names the formats it knows"
else bad "validate unknown format: exit $rc $(cat "$WORK/err")"; fi
expect_status "inspect URL through a redirect" 0 inspect "$ORIGIN/moved.m3u8"
# A dead origin: accepts connections and never answers.
DEAD_PORT=$((PORT + 2))
python3 -c "import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', $DEAD_PORT)); s.listen(16); c=[s.accept() for _ in range(8)]; time.sleep(60)" &
DEAD=$!
sleep 0.2
set +e; timeout 60 "$BIN" download "http://127.0.0.1:$DEAD_PORT/index.m3u8" -o "$WORK/out/dead.ts" --timeout 1 --retries 1 > /dev/null 2>"$WORK/err"; rc=$?; set -e
kill $DEAD 2>/dev/null; wait $DEAD 2>/dev/null || true
if [ $rc = 1 ] && grep -q "^retry 1 of " "$WORK/err" && tail -1 "$WORK/err" | grep -Eq "no response head within|timed out after 1[0-9]{3} milliseconds with 0 bytes"; then
  ok "download --timeout 1 --retries 1 against a dead origin: one retry said on stderr, then the 1 s timeout ($(tail -1 "$WORK/err" | cut -c17-80))"
else bad "dead origin: exit $rc $(cat "$WORK/err")"; fi
set +e; "$BIN" fetch "$ORIGIN/busy.bin" --allow-http --retry 1 > /dev/null 2>"$WORK/err"; rc=$?; set -e
if [ $rc = 1 ] && grep -q "^retry 1 of .* in 1.0 s: status 503" "$WORK/err"; then ok "fetch --retry 1 with Retry-After: the wait is said on stderr"
else bad "fetch Retry-After: exit $rc $(cat "$WORK/err")"; fi
echo "cli-contract: $pass passed, $fail failed, $((skipped + players_skipped)) skipped"
[ "$skipped" = 0 ] || [ "${ALLOW_SKIPPED:-0}" = 1 ] || echo "cli-contract: $skipped checks could not run (ALLOW_SKIPPED=1 accepts that)"
[ "$fail" = 0 ] && { [ "$skipped" = 0 ] || [ "${ALLOW_SKIPPED:-0}" = 1 ]; }
