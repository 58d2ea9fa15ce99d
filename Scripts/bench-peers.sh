# Sourced by the benchmarks that run the PyPI peers: sets VENV and installs yt-dlp and
# streamlink into it when missing (TESSERA_BENCH_VENV overrides where).
VENV="${TESSERA_BENCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera-bench/venv}"
if [ ! -x "$VENV/bin/yt-dlp" ] || [ ! -x "$VENV/bin/streamlink" ]; then
  echo "bench: installing yt-dlp and streamlink from PyPI into $VENV" >&2
  command -v python3 >/dev/null || apt-get install -y -qq python3 python3-venv >/dev/null
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV" || { apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$VENV"; }
  "$VENV/bin/pip" install -q "yt-dlp[default]" streamlink >&2
fi
