#!/usr/bin/env bash
# The main job on the bundled fixtures: installs what is missing, builds in release mode and
# runs `tessera demo` (loopback origin → libcurl → AES-128 → TS check → atomic file → ffmpeg;
# a package served to ffmpeg and Chromium; a live recording from the test-support origin; one MP4
# with separate audio and subtitles played by ffmpeg and Chromium). The test-support origin is
# built in release mode beside tessera, where the demo finds it.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
TESSERA="$(bash Scripts/release-tessera.sh)"
bash Scripts/release-tessera.sh --product tessera-live-origin > /dev/null
"$TESSERA" demo "$@"
