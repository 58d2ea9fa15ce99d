#!/usr/bin/env python3
"""Time a peer playlist parser in-process: parse_peer.py PARSER FILE REPS.

PARSER is `m3u8` (m3u8.loads, the object model its users get) or `streamlink`
(streamlink.stream.hls.m3u8.parse_m3u8, the path streamlink's HLS stream uses).
The file is read and decoded once, outside the timing; one warm-up parse, then
REPS timed parses. Prints one JSON line: times, items found, peak RSS (KiB).
"""
import json
import resource
import sys
import time


def main():
    parser, path, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    base = "http://127.0.0.1/" + path.rsplit("/", 2)[-2] + "/"
    if parser == "m3u8":
        import m3u8

        def run():
            playlist = m3u8.loads(text, uri=base)
            return len(playlist.segments) or len(playlist.playlists) + len(playlist.media)
    else:
        from streamlink.stream.hls.m3u8 import parse_m3u8

        def run():
            playlist = parse_m3u8(text, base_uri=base)
            return len(playlist.segments) or len(playlist.playlists) + len(playlist.media)
    run()
    times = []
    items = 0
    for _ in range(reps):
        start = time.perf_counter()
        items = run()
        times.append(time.perf_counter() - start)
    print(json.dumps({"times": times, "items": items,
                      "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))


main()
