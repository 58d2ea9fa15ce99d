#!/usr/bin/env bash
# Many channels in one process, one run: `tessera record --channels` of CHANNELS (default 100)
# live channels of 2 s MPEG-TS segments at about 2 Mbit/s, served by nginx on loopback, their
# playlists advanced in real time by QualityGates/Bench/peers/channel_generator.py (one clock:
# every channel changes at the same instant), for CHANNEL_SECONDS (default 600). Reported:
# segments missed (media sequences published while a channel recorded and not in its package,
# gaps included), channels whose package verifies, CPU (cores, user + system over wall), peak
# RSS against the 64 MiB + 1 MiB a channel goal, segment-to-disk latency (the file's write time
# less the instant its playlist listed it) p50/p95/max; RSS every 10 s, and its slope after the
# first WARMUP_SECONDS (default 600 when the run is longer, else a third of it) until the
# recording's end (the commit after it is a moment's peak).
# Segments missed: holes (a declared gap names no numbered file, so it is one) and a recording
# that fell short of its duration, or the gaps its commit reported over the whole recording
# (evicted ones included) when more.
# Then, beside it on the same origin: PEERS (default 20) `ffmpeg -c copy` processes recording 20
# of the channels for PEER_SECONDS (default 120), then as many streamlink processes: CPU (cores)
# and peak RSS a channel. PEERS=0 skips them.
# GATE=1 (the channels soak gate) fails on any missed segment, a package that does not verify,
# a peak RSS over the goal, or a memory floor slope above 1 MiB an hour after warm-up (the floor:
# the resident size less the segment bodies held, which the recorder reports each minute just
# after it hands freed memory back; the slope a Theil-Sen estimate — the least-squares slope of
# every RSS sample is printed beside it).
# FAULTY=1 adds three faulty channels to the list (a dead origin, a playlist trickled at 2 bytes a
# second, a 5 MB playlist that never moves on): the clean channels' figures, measured as always,
# show what the faulty ones cost them (compare a run without). KEEP_WORK=1 keeps the work folder.
# ROLLING=<seconds> records every channel with `--rolling <seconds>` (the soak gate: an hour of 100
# channels is ~100 GB kept whole); evicted segments count as recorded (the manifest's evictions).
# The origin's files and the generator's log live on /dev/shm: under the recorder's ~28 MB/s of
# writes the kernel throttles every writer on the volume, and a generator that writes its
# playlists there lags them (by up to 20 s in an hour's run), so its times could not be trusted.
# Usage: bench-channels.sh   (run by Scripts/bench.sh channels; QualityGates/channels-soak.sh)
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh   # ffmpeg, nginx-light (the gate runs this script without bench.sh)
CHANNELS="${CHANNELS:-100}"
SECONDS_REC="${CHANNEL_SECONDS:-600}"
PEERS="${PEERS:-20}"
PEER_SECONDS="${PEER_SECONDS:-120}"
FAULTY="${FAULTY:-0}"
WARMUP="${WARMUP_SECONDS:-$(( SECONDS_REC > 1200 ? 600 : SECONDS_REC / 3 ))}"
TESSERA="$(bash Scripts/release-tessera.sh)"
. "$HERE/Scripts/nginx-origin.sh"
[ "$PEERS" = 0 ] || . "$HERE/Scripts/bench-peers.sh"
ROLLING="${ROLLING:-}"
WORK="$(mktemp -d -p "${BENCH_WORK:-/var/tmp}")"   # on disk: 100 channels write ~15 GB in 10 minutes
SHM="$(mktemp -d -p /dev/shm)"                      # the origin's files and the publication log
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "bench channels: work kept at $WORK and $SHM"; else rm -rf "$WORK" "$SHM"; fi
}
trap cleanup EXIT

# Segments: 2 s at about 2 Mbit/s, timestamps continuous for as long as the run (looped beyond).
SEGMENTS=$(( SECONDS_REC / 2 + 40 < 400 ? SECONDS_REC / 2 + 40 : 400 ))
mkdir -p "$SHM/www/src"
ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=640x360:rate=25 \
  -f lavfi -i sine=frequency=440:sample_rate=48000 -t 20 -c:v libx264 -preset ultrafast \
  -g 50 -keyint_min 50 -sc_threshold 0 -b:v 1900k -minrate 1900k -maxrate 1900k -bufsize 1900k \
  -x264-params nal-hrd=cbr -c:a aac -b:a 96k -f mpegts "$WORK/base.ts"
ffmpeg -nostdin -hide_banner -loglevel error -y -stream_loop $(( SEGMENTS / 10 + 1 )) -i "$WORK/base.ts" -c copy -f hls -hls_time 2 \
  -hls_list_size 0 -hls_playlist_type vod -hls_segment_filename "$SHM/www/src/seg_%03d.ts" "$SHM/www/src/index.m3u8"
SEGMENTS=$(ls "$SHM/www/src" | grep -c '^seg_')

if [ "$FAULTY" = 1 ]; then start_origin "$WORK" "$SHM/www" trickle; else start_origin "$WORK" "$SHM/www"; fi
PIDS+=("$NGINX_PID")
python3 QualityGates/Bench/peers/channel_generator.py --root "$SHM/www" --channels "$CHANNELS" --segments "$SEGMENTS" \
  --log "$SHM/published.jsonl" --seconds $(( SECONDS_REC + 2 * PEER_SECONDS + 120 )) &
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$SHM/published.jsonl" ] && break; sleep 0.05; done
for i in $(seq 0 $(( CHANNELS - 1 ))); do printf 'ch%03d http://127.0.0.1:%s/ch%03d/live.m3u8\n' "$i" "$PORT" "$i"; done > "$WORK/channels.txt"
if [ "$FAULTY" = 1 ]; then
  # A dead origin (nothing listens on port 9), a live playlist trickled at 2 bytes a second, and
  # a live playlist of 5 MB that never moves on (its segments real): named fault-*, outside
  # every figure below but CPU and RSS.
  mkdir -p "$SHM/www/trickle" "$SHM/www/huge"
  cp "$SHM/www/ch000/live.m3u8" "$SHM/www/trickle/live.m3u8"
  python3 - "$SHM/www/huge/live.m3u8" <<'PY'
import sys
lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
size, n = 0, 0
while size < 5 << 20:
    entry = f"#EXTINF:2.000000,\n../src/seg_{n % 10:03d}.ts?n={n}"
    lines.append(entry); size += len(entry) + 1; n += 1
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
  printf 'fault-dead http://127.0.0.1:9/live.m3u8\nfault-trickle http://127.0.0.1:%s/trickle/live.m3u8\nfault-huge http://127.0.0.1:%s/huge/live.m3u8\n' \
    "$PORT" "$PORT" >> "$WORK/channels.txt"
fi
echo "bench channels: $(nproc) cores, $CHANNELS channels$([ "$FAULTY" = 1 ] && echo " (and 3 faulty ones)") of 2 s TS segments at ~$(( $(stat -c %s "$SHM/www/src/seg_001.ts") * 8 / 2000 )) kbit/s for ${SECONDS_REC} s, nginx on 127.0.0.1:$PORT, release tessera"

# tessera: every channel in one process; RSS sampled every 10 s.
STARTED=$(python3 -c 'import time; print(time.time())')
/usr/bin/time -f "%e %U %S %M" -o "$WORK/tessera.time" "$TESSERA" record --channels "$WORK/channels.txt" -o "$WORK/out" \
  --duration "$SECONDS_REC" ${ROLLING:+--rolling "$ROLLING"} --json > "$WORK/tessera.jsonl" 2> "$WORK/tessera.err" &
TIMED=$!
PIDS+=("$TIMED")
for _ in $(seq 1 100); do RECORDER=$(pgrep -P "$TIMED" -x tessera || true); [ -n "$RECORDER" ] && break; sleep 0.05; done
RECORDING_STARTED=$SECONDS
while kill -0 "$RECORDER" 2>/dev/null; do
  # The faulty channels retry for ever: once the clean ones are done, SIGINT ends the run.
  if [ "$FAULTY" = 1 ] && [ $(( SECONDS - RECORDING_STARTED )) -gt $(( SECONDS_REC + 30 )) ]; then kill -INT "$RECORDER" 2>/dev/null || true; fi
  # RSS (KiB) and threads; with KEEP_WORK=1, the heap and the stacks (KiB) apart too.
  rss=$(awk '/^VmRSS/ {r=$2} /^Threads/ {t=$2} END {if (r) print r, t}' "/proc/$RECORDER/status" 2>/dev/null || true)
  [ -n "$rss" ] && echo "$(date +%s.%N) $rss" >> "$WORK/rss.samples"
  [ "${KEEP_WORK:-0}" = 1 ] && awk '/^[0-9a-f]+-/ {name=$6} /^Rss:/ {if (name=="[heap]") h+=$2; else if (name=="") a+=$2; else o+=$2} END {print systime(), h, a, o}' \
    "/proc/$RECORDER/smaps" >> "$WORK/smaps.samples" 2>/dev/null || true
  sleep 3   # not a divisor of the 2 s cadence: the samples walk across the bodies' sawtooth
done
wait "$TIMED" && status=0 || status=$?
verified=0
for dir in "$WORK"/out/ch*; do "$TESSERA" verify-package "$dir" > /dev/null 2>&1 && verified=$((verified + 1)); done

# Peers: PEERS ffmpeg processes, then PEERS streamlink ones, each on its own channel.
peer_rows=()
if [ "$PEERS" != 0 ]; then
  for tool in ffmpeg streamlink; do
    peer_pids=()
    for i in $(seq 0 $(( PEERS - 1 ))); do
      url="http://127.0.0.1:$PORT/$(printf 'ch%03d' "$i")/live.m3u8"
      if [ "$tool" = ffmpeg ]; then
        cmd=(ffmpeg -nostdin -hide_banner -loglevel error -y -i "$url" -c copy -t "$PEER_SECONDS" "$WORK/peer-$tool-$i.ts")
      else
        cmd=("$VENV/bin/streamlink" --no-config --loglevel error --progress no --force --stream-segmented-duration "$PEER_SECONDS" -o "$WORK/peer-$tool-$i.ts" "hls://$url" best)
      fi
      /usr/bin/time -f "%e %U %S %M" -o "$WORK/peer-$tool-$i.time" timeout --kill-after=5 $(( PEER_SECONDS + 60 )) "${cmd[@]}" > /dev/null 2>&1 &
      peer_pids+=($!)
    done
    for pid in "${peer_pids[@]}"; do wait "$pid" || true; done
  done
fi

python3 - "$WORK" "$SHM" "$STARTED" "$SECONDS_REC" "$CHANNELS" "$verified" "$status" "$WARMUP" "$PEERS" "${GATE:-0}" <<'PY'
import glob, json, os, statistics, sys
work, shm, started, seconds, channels, verified, status, warmup, peers, gate = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), float(sys.argv[8]), int(sys.argv[9]), sys.argv[10] == "1"
published = {}
for line in open(os.path.join(shm, "published.jsonl")):
    x = json.loads(line)
    published.setdefault(x["msn"], x["t"])
missed, latencies, recorded, gaps, evicted = 0, [], 0, 0, 0
# Each channel's own account at its commit: its gaps over the whole recording (the manifest lists
# those still kept only; a hole among evicted segments is one of these).
reports, memory = {}, []
for line in open(os.path.join(work, "tessera.jsonl")):
    try:
        x = json.loads(line)
    except ValueError:
        continue
    if x.get("event") == "committed" and "report" in x:
        reports[x["channel"]] = x["report"]
    elif x.get("event") == "memory":
        # Each minute, just after the recorder handed its freed heap back: resident, live and
        # segment-body MiB.
        memory.append((x["time"], x["residentBytes"] / 2 ** 20, x["heapInUseBytes"] / 2 ** 20, x.get("bodyBytes", 0) / 2 ** 20))
settled = []   # latencies of segments listed after the warm-up
for i in range(channels):
    name = f"ch{i:03d}"
    folder = os.path.join(work, "out", name)
    try:
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
    except OSError:
        missed += int(seconds / 2)
        continue
    declared = reports.get(name, {}).get("gaps")
    gaps += declared if declared is not None else len(manifest.get("gaps", []))
    files = glob.glob(os.path.join(folder, "video", "[0-9]*.ts"))
    kept = {int(os.path.basename(f).split(".")[0]) for f in files}
    # Under rolling retention the variant's evicted segments were recorded too.
    variant = manifest["tracks"][0]["id"] if manifest.get("tracks") else None
    gone = {m for e in manifest.get("evictions", []) if e["track"] == variant
            for m in range(e["firstMediaSequence"], e["lastMediaSequence"] + 1)}
    evicted += len(gone - kept)
    msns = sorted(kept | gone)
    recorded += len(msns)
    # Holes between the first and the last segment (gaps among them), and a recording that fell
    # short of the duration asked.
    span = msns[-1] - msns[0] + 1 if msns else 0
    # A declared gap among the kept files is a hole too: the larger count, not both.
    missed += max(span - len(msns) + max(0, int(seconds / 2) - span), declared or 0)
    for f in files:
        msn = int(os.path.basename(f).split(".")[0])
        listed = published.get(msn)
        # Only segments listed after the recorder started: the first one was listed before.
        if listed is not None and listed > started + 1:
            latencies.append(os.stat(f).st_mtime - listed)
            if listed >= started + warmup:
                settled.append(latencies[-1])
t = open(os.path.join(work, "tessera.time")).read().split()[-4:]   # after "Command exited with non-zero status N"
wall, cpu, rss = float(t[0]), float(t[1]) + float(t[2]), int(t[3]) / 1024
samples = [tuple(map(float, l.split())) for l in open(os.path.join(work, "rss.samples"))] if os.path.exists(os.path.join(work, "rss.samples")) else []
# While recording: the commit at the end reads every channel's timeline back, a moment's peak.
late = [(s[0], s[1] / 1024) for s in samples if warmup <= s[0] - started <= seconds]
slope = None
if len(late) >= 3:
    mx = statistics.fmean(x for x, _ in late); my = statistics.fmean(y for _, y in late)
    den = sum((x - mx) ** 2 for x, _ in late)
    slope = sum((x - mx) * (y - my) for x, y in late) / den * 3600 if den else 0.0
# The floor: what the recorder keeps. `record --channels` hands the freed heap back to the kernel
# each minute and then says (`--json`, a `memory` line) its resident size, the bytes its
# allocator has handed out, and the segment bodies among them (arriving, waiting to be written,
# kept for the next: bounded by the shared budget, and 20–60 MiB from one minute to the next
# depending on where in the segments' cadence the minute falls). The samples in between climb to
# each minute's high-water mark — a sawtooth that leaves a least-squares slope over an hour
# uncertain by more than 1 MiB/h. The floor is the resident size less the bodies; its slope the
# Theil–Sen estimate over the minutes after warm-up (the median of the slopes between every two
# of them, which a burst that outlives one hand-back does not move).
def theil_sen(points):
    pairs = [(b[1] - a[1]) / (b[0] - a[0]) for i, a in enumerate(points) for b in points[i + 1:] if b[0] > a[0]]
    return statistics.median(pairs) * 3600 if len(points) >= 10 else None
settled_memory = [m for m in memory if warmup <= m[0] - started <= seconds]
floors = [(t, resident - bodies) for t, resident, _, bodies in settled_memory]
residents = [(t, resident) for t, resident, _, _ in settled_memory]
floor_slope, resident_slope = theil_sen(floors), theil_sen(residents)
latencies.sort()
settled.sort()
def pct(p, values=latencies): return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")
goal_rss = 64 + channels
print(f"tessera: exit {status}, {channels} channels, {recorded} segments recorded ({evicted} of them evicted by rolling retention), {missed} missed ({gaps} gaps declared), {verified}/{channels} packages verify")
print(f"tessera: CPU {cpu:.1f} s over {wall:.0f} s = {cpu / wall:.3f} cores (goal <= 0.5); peak RSS {rss:.1f} MiB (goal <= {goal_rss} MiB)")
print(f"tessera: segment-to-disk after listing p50 {pct(0.5):.0f} ms, p95 {pct(0.95):.0f} ms, max {pct(1.0) if latencies else float('nan'):.0f} ms over {len(latencies)} segments (goal p95 <= 500 ms)")
print(f"tessera: of segments listed after {warmup:.0f} s of warm-up: p50 {pct(0.5, settled):.0f} ms, p95 {pct(0.95, settled):.0f} ms over {len(settled)} segments; "
      f"{sum(1 for x in latencies if x > 1.0)} of all over 1 s")
if slope is not None:
    print(f"tessera: RSS after {warmup:.0f} s of warm-up: {late[0][1]:.1f} -> {late[-1][1]:.1f} MiB over {len(late)} samples, least-squares slope {slope:+.2f} MiB/h")
    if floor_slope is not None:
        def ends(points): return f"{statistics.median(p[1] for p in points[:10]):.1f} -> {statistics.median(p[1] for p in points[-10:]):.1f} MiB"
        print(f"tessera: memory floor (each minute after the freed heap went back: resident less segment bodies) over {len(floors)} minutes: "
              f"{ends(floors)} (medians of the first and last ten), slope {floor_slope:+.2f} MiB/h (Theil-Sen; goal <= 1 MiB/h); "
              f"resident then {ends(residents)}, slope {resident_slope:+.2f} MiB/h")
    # Each 5 minutes' lowest and median sample: a step shows here, a sawtooth does not.
    buckets = {}
    for x, y in late: buckets.setdefault(int((x - started) // 300), []).append(y)
    print("tessera: RSS by 5 minutes (min/median MiB): " + ", ".join(f"{k * 5}m {min(v):.0f}/{statistics.median(v):.0f}" for k, v in sorted(buckets.items())))
print(f"tessera: per channel {cpu / wall / channels * 1000:.2f} millicores, {rss / channels:.2f} MiB")
for tool in ("ffmpeg", "streamlink"):
    rows = []
    for path in glob.glob(os.path.join(work, f"peer-{tool}-*.time")):
        try:
            e, u, s, m = open(path).read().split()[-4:]
            rows.append(((float(u) + float(s)) / float(e), int(m) / 1024))
        except (ValueError, OSError):
            pass
    if rows:
        print(f"{tool}: {len(rows)} processes, a channel each: CPU {statistics.median(r[0] for r in rows) * 1000:.1f} millicores (median), peak RSS {statistics.median(r[1] for r in rows):.1f} MiB (median); "
              f"for {channels} channels: {sum(r[0] for r in rows) / len(rows) * channels:.2f} cores, {sum(r[1] for r in rows) / len(rows) * channels:.0f} MiB")
print(f"bound channels.missed {missed}")
print(f"bound channels.cpu-cores {cpu / wall:.3f}")
print(f"bound channels.peak-rss-mib {rss:.1f}")
print(f"bound channels.p95-ms {pct(0.95):.0f}")
failures = []
if gate:
    if missed: failures.append(f"{missed} segments missed")
    if verified != channels: failures.append(f"{channels - verified} packages do not verify")
    if floor_slope is None: failures.append("too few memory lines after warm-up for a slope")
    elif floor_slope > 1.0: failures.append(f"the memory floor grows {floor_slope:.2f} MiB/h after warm-up")
    if rss > goal_rss: failures.append(f"peak RSS {rss:.1f} MiB over {goal_rss} MiB")
    if status != 0: failures.append(f"tessera exited {status}")
    print("channels gate: " + ("FAILED: " + "; ".join(failures) if failures else "passed"))
sys.exit(1 if failures else 0)
PY
