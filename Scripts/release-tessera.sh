#!/usr/bin/env bash
# Builds the release `tessera` and prints its path: the shipped shape of the binary, with the
# Swift runtime linked in statically (--static-swift-stdlib: no Swift libraries needed on the
# machine that runs it, and only the runtime pages it uses are mapped — 16 MB resident at start
# instead of 19). Every script that runs the release binary builds it here, so they share one
# build. Quiet unless the build fails.
#   Usage: BIN="$(bash Scripts/release-tessera.sh)"
#          GATES="$(bash Scripts/release-tessera.sh --product tessera-gates)"   (the in-process
#          gates, built with the same flags so the libraries are built once for both)
set -euo pipefail
cd "$(dirname "$0")/.."
product=tessera
if [ "${1:-}" = "--product" ]; then product="${2:?--product needs a name}"; fi
if ! log="$(swift build -c release --product "$product" --static-swift-stdlib 2>&1)"; then
  echo "$log" >&2
  echo "release-tessera: the release build of $product failed" >&2
  exit 1
fi
echo "$(swift build -c release --static-swift-stdlib --show-bin-path)/$product"
