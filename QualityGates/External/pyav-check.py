#!/usr/bin/env python3
"""The external gate's validator: PyAV (libavformat and libavcodec as PyPI builds them, newer
than and independent of Debian's ffmpeg) opens every media playlist under the fixtures folder
through its own HLS demuxer, decodes every audio and video frame and subtitle cue set, and must agree with the
system ffprobe's frame counts (-count_frames) for every stream. A decode error, a stream PyAV
does not see or a count that differs fails it.

  pyav-check.py <fixtures folder>        ends with "external: N playlists agree (PyAV x.y, …)"
"""
import json, os, subprocess, sys

import av  # the caller checked that it imports

KINDS = ("video", "audio", "subtitle")
OPTIONS = {"allowed_extensions": "ALL", "protocol_whitelist": "file,crypto,data"}


def pyav_counts(path):
    counts = {}
    with av.open(path, options=OPTIONS) as container:
        streams = [s for s in container.streams if s.type in KINDS]
        for frame in container.decode(*streams):
            kind = "video" if isinstance(frame, av.VideoFrame) else "audio" if isinstance(frame, av.AudioFrame) else "subtitle"
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def ffprobe_counts(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-allowed_extensions", "ALL", "-protocol_whitelist", "file,crypto,data",
                          "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames", "-of", "json", path],
                         capture_output=True, text=True, check=True).stdout
    counts = {}
    for stream in json.loads(out).get("streams", []):
        if stream.get("codec_type") in KINDS:
            counts[stream["codec_type"]] = counts.get(stream["codec_type"], 0) + int(stream.get("nb_read_frames", 0))
    return counts


def main(folder):
    playlists = []
    for root, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            if name.endswith(".m3u8") and "#EXTINF" in open(os.path.join(root, name), errors="replace").read():
                playlists.append(os.path.join(root, name))
    failures = 0
    for path in playlists:
        try:
            ours, theirs = pyav_counts(path), ffprobe_counts(path)
        except (av.error.FFmpegError, subprocess.CalledProcessError, OSError) as error:
            print(f"  FAIL {path}: {error}")
            failures += 1
            continue
        if not ours or ours != theirs:
            print(f"  FAIL {path}: PyAV decoded {ours}, ffprobe counts {theirs}")
            failures += 1
        else:
            print(f"  ok   {path}: {', '.join(f'{n} {k} frames' for k, n in sorted(ours.items()))}")
    version = f"PyAV {av.__version__}, libavformat {'.'.join(map(str, av.library_versions['libavformat']))}"
    if failures:
        print(f"external: {failures} of {len(playlists)} playlists disagree ({version})")
        return 1
    print(f"external: {len(playlists)} playlists agree ({version} against the system ffprobe)")
    return 0 if playlists else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
