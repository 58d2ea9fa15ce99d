#!/usr/bin/env python3
"""The report of Scripts/bench-live.sh: reads the origins' logs (publications and answers, wall
clock), the clients' outputs and /usr/bin/time figures from WORK and prints the table."""
import json, os, statistics, sys
from datetime import datetime

work = sys.argv[1]


def lines(name):
    """JSON lines; a line stamped by bench-live.sh ("<seconds> {…}") gets its stamp as "_at"."""
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        stamp, _, rest = line.strip().partition(" ")
        text, at = (rest, float(stamp)) if rest.startswith("{") and stamp.replace(".", "").isdigit() else (line.strip(), None)
        if text.startswith("{"):
            try:
                row = json.loads(text)
            except json.JSONDecodeError:
                continue
            if at is not None:
                row["_at"] = at
            out.append(row)
    return out


def origin(name):
    rows = lines(name + ".jsonl")
    published = {r["published"]: r["t"] for r in rows if "answer" not in r and "published" in r}
    answers = [r for r in rows if "answer" in r]
    return published, answers


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def timing(name):
    path = os.path.join(work, name + ".time")
    if not os.path.exists(path):
        return None
    fields = open(path).read().split()
    try:
        wall, user, system, rss = float(fields[-4]), float(fields[-3]), float(fields[-2]), int(fields[-1])
    except (ValueError, IndexError):
        return None
    return wall, user + system, rss / 1024


def ms(value):
    return "n/a" if value != value else f"{value * 1000:.1f} ms"


# Low-Latency: publication of part k -> first watch line holding k parts.
P = 4
def low_latency(client):
    """(delays, playlist requests per part) of `client` on its own Low-Latency origin."""
    published, answers = origin("ll" if client == "tessera" else "ll-" + client)
    watch = []
    for r in lines(f"ll-{client}.stdout"):
        if r.get("msn") is None:
            continue
        total = (r["msn"] + 1) * P + (r["part"] + 1 if r.get("part") is not None else 0)
        watch.append((r.get("_at") or datetime.fromisoformat(r["time"].replace("Z", "+00:00")).timestamp(), total))
    delays = []
    if watch:
        first_time = watch[0][0]
        for k, t in sorted(published.items()):
            if t <= first_time:
                continue
            seen = next((wt for wt, total in watch if total >= k), None)
            if seen is not None:
                delays.append(max(0.0, seen - t))
    playlist_answers = [a for a in answers if a["answer"].startswith("/live.m3u8")]
    parts = (playlist_answers[-1]["published"] - playlist_answers[0]["published"]) if len(playlist_answers) > 1 else 0
    return delays, ((len(playlist_answers) - 1) / parts if parts else float("nan"))
before = os.path.exists(os.path.join(work, "ll-before.stdout"))
delays, per_part = low_latency("tessera")
print(f"\nLow-Latency origin (target 4 s, part 1 s, deltas): {len(delays)} parts followed")
print(f"{'client':<12} {'part→snapshot p50':>18} {'p95':>8} {'max':>8} {'requests/part':>14} {'CPU s':>7} {'RSS MB':>7}")
for client in ["tessera"] + (["before"] if before else []):
    d, rate = (delays, per_part) if client == "tessera" else low_latency(client)
    t = timing("ll-" + client)
    print(f"{client:<12} {ms(statistics.median(d) if d else float('nan')):>18} {ms(pct(d, 95)):>8} {ms(max(d) if d else float('nan')):>8} "
          f"{rate:>14.3f} {t[1] if t else float('nan'):>7.2f} {t[2] if t else float('nan'):>7.1f}")
print("# peers: streamlink, ffmpeg and N_m3u8DL-RE do not implement Low-Latency HLS (no PART, SKIP or blocking reload); see the plain origin below.")
# The figures bench.sh --check compares with the baseline: `bound` lines (lower is better) where
# no peer runs beside tessera, `ratio` lines (the peer's figure over ours) where one does.
checked = [f"bound live.ll.requests-per-part {per_part:.4f}"]

# Plain origins: publication of segment m -> first playlist answer listing it; first GET of it.
print(f"\nPlain live origin (4 s TS segments, no parts, no blocking): one origin per client, run together")
print(f"{'client':<12} {'segment→listed p50':>19} {'p95':>8} {'requests/segment':>17} {'segment→GET p50':>16} {'p95':>8} {'CPU s':>7} {'RSS MB':>7}")
plain = {}
for client in ("tessera", "streamlink", "ffmpeg") + (("before",) if before else ()):
    published, answers = origin("plain-" + client)
    playlists = [a for a in answers if a["answer"].startswith("/live.m3u8")]
    segments = {}
    for k, at in published.items():
        if k % P == 0:
            segments[k // P - 1] = at
    listed, fetched = [], []
    gets = {}
    for a in answers:
        path = a["answer"]
        if path.startswith("/s") and path.endswith(".ts"):
            try:
                gets.setdefault(int(path[2:-3]), a["t"])
            except ValueError:
                pass
    start = playlists[0]["t"] if playlists else None
    for m, at in sorted(segments.items()):
        if start is None or at <= start:
            continue
        seen = next((a["t"] for a in playlists if a["published"] // P > m and a["t"] >= at - 0.002), None)
        if seen is not None:
            listed.append(max(0.0, seen - at))
        if m in gets:
            fetched.append(max(0.0, gets[m] - at))
    new = (playlists[-1]["published"] // P - playlists[0]["published"] // P) if len(playlists) > 1 else 0
    per_segment = (len(playlists) - 1) / new if new else float("nan")
    t = timing("plain-" + client)
    plain[client] = (statistics.median(listed) if listed else float("nan"), per_segment)
    watches = client in ("tessera", "before")
    get50 = "n/a (watches)" if watches else ms(statistics.median(fetched) if fetched else float("nan"))
    get95 = "" if watches else ms(pct(fetched, 95))
    print(f"{client:<12} {ms(statistics.median(listed) if listed else float('nan')):>19} {ms(pct(listed, 95)):>8} {per_segment:>17.3f} "
          f"{get50:>16} {get95:>8} {t[1] if t else float('nan'):>7.2f} {t[2] if t else float('nan'):>7.1f}")

for peer in ("streamlink", "ffmpeg"):
    # A millisecond floor: a listing latency of zero must not divide the peer's by nothing.
    checked.append(f"ratio live.plain.listed-p50-vs-{peer} {plain[peer][0] / max(plain['tessera'][0], 0.001):.4f}")
    checked.append(f"ratio live.plain.requests-per-segment-vs-{peer} {plain[peer][1] / plain['tessera'][1]:.4f}")

# A day of EVENT playlist.
samples = []
path = os.path.join(work, "day-rss.txt")
if os.path.exists(path):
    for line in open(path):
        fields = line.split()
        if len(fields) == 3:
            samples.append((float(fields[0]), int(fields[1]), int(fields[2])))
tuned = [s for s in samples if s[1] >= 1]
def rss(name):
    try:
        return int(open(os.path.join(work, name)).read().split()[-1])
    except (OSError, ValueError, IndexError):
        return 0
one = rss("inspect-day.rss") - rss("inspect-small.rss")
snapshots = len(lines("day-tessera.stdout"))
last = lines("day-tessera.stdout")[-1:] or [{}]
print(f"\nA day of EVENT playlist: {last[0].get('segments', '?')} segments at the end, {snapshots} snapshots")
if tuned and one > 0:
    base = rss("inspect-small.rss")
    peak = max(s[2] for s in tuned)
    print(f"watch RSS after tune-in {tuned[0][2] / 1024:.1f} MB, at the end {tuned[-1][2] / 1024:.1f} MB, peak {peak / 1024:.1f} MB; "
          f"one parsed playlist {one / 1024:.1f} MB (inspect {rss('inspect-day.rss') / 1024:.1f} MB less {base / 1024:.1f} MB); "
          f"watch above the process baseline = {(peak - base) / one:.2f} × one playlist")
    checked.append(f"bound live.day.peak-rss-mib {peak / 1024:.1f}")
else:
    print("SKIPPED: no RSS samples of watch on the day origin")
print("\n".join(checked))
