#!/usr/bin/env python3
"""Advances the live playlists of many channels in real time, for `bench.sh channels` and the
channels soak gate: every SEGMENT seconds (one clock for all, so every channel changes at the
same instant — the hardest case for a recorder's reloads) each channel's `live.m3u8` under ROOT
gains the next segment and loses its oldest (a window of WINDOW), written whole and renamed in.

    channel_generator.py --root ROOT --channels N --segments K --log LOG [--segment 2] [--window 6]
                         [--seconds S]

Segment files are shared: media sequence m of every channel is `/src/seg_<m mod K>.ts` (a
discontinuity where they loop). LOG gets a
JSON line per publication: {"t": wall seconds, "msn": the newest media sequence}.
"""
import argparse
import json
import os
import time


def playlist(msn, window, segment, count):
    # The source files loop every `count` segments, their timestamps going back there: a
    # discontinuity (EXT-X-DISCONTINUITY before media sequence k * count), counted in the
    # discontinuity sequence once its tag has left the playlist (RFC 8216 6.2.2) — not while its
    # segment is the first listed, whose tag is still there (counting it then too gave that
    # segment another discontinuity number than it had, and a recorder rightly took the source
    # for restarted at every loop).
    first = max(0, msn - window + 1)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{segment}", f"#EXT-X-MEDIA-SEQUENCE:{first}",
             f"#EXT-X-DISCONTINUITY-SEQUENCE:{(first - 1) // count if first > 0 else 0}"]
    for m in range(first, msn + 1):
        if m > 0 and m % count == 0:
            lines.append("#EXT-X-DISCONTINUITY")
        lines += [f"#EXTINF:{segment:.3f},", f"/src/seg_{m % count:03d}.ts"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--channels", type=int, required=True)
    parser.add_argument("--segments", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--segment", type=int, default=2)
    parser.add_argument("--window", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=4000)
    args = parser.parse_args()
    names = [f"ch{i:03d}" for i in range(args.channels)]
    for name in names:
        os.makedirs(os.path.join(args.root, name), exist_ok=True)
    start = time.time()
    msn = args.window - 1   # a full window at once
    with open(args.log, "a", buffering=1) as log:
        while time.time() - start < args.seconds:
            text = playlist(msn, args.window, args.segment, args.segments)
            for name in names:
                path = os.path.join(args.root, name, "live.m3u8")
                with open(path + ".tmp", "w") as f:
                    f.write(text)
                os.rename(path + ".tmp", path)
            log.write(json.dumps({"t": time.time(), "msn": msn}) + "\n")
            msn += 1
            next_tick = start + (msn - args.window + 1) * args.segment
            time.sleep(max(0.0, next_tick - time.time()))


if __name__ == "__main__":
    main()
