#!/usr/bin/env bash
# The main job on the bundled fixtures: installs what is missing, builds in release mode and
# runs `tessera demo` (loopback origin → libcurl → AES-128 → TS check → atomic file → ffmpeg).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
bash Scripts/bootstrap.sh
"$(bash Scripts/release-tessera.sh)" demo "$@"
