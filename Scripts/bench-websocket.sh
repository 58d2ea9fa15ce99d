#!/usr/bin/env bash
# WebSocket echo round trips: tessera's client (tessera-ws-bench, release) vs the Python
# `websockets` client (PyPI, asyncio, no compression), side by side against the same echo server
# on loopback — first the `websockets` server (the peer named by the issue), then tessera's test
# echo server (`tessera-ws-bench --serve`: a blocking thread per connection, so the server's own
# cost weighs less on the ratio) — SMALL sequential round trips of a 32-byte text message and
# LARGE of a 1 MiB binary message, each answered before the next goes; REPS runs each, medians,
# and the CPU seconds each client spent. Beside them, the loopback ceiling for sequential round
# trips on this machine (QualityGates/WebSocket/loopback_pingpong.c: blocking C send/recv, no
# framing), which no client can pass; and against each server the ceiling of any WebSocket
# client (QualityGates/WebSocket/ws_ceiling_client.c: one blocking socket, a masked frame per
# send, blocking recvs — the server's and the kernel's share of a small round trip), with the most a
# client's ratio against the websockets client can be there (ceiling ÷ websockets client) and
# the share of the ceiling tessera reaches. Called by Scripts/bench.sh websocket.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
REPS="${1:-3}"
SMALL="${SMALL:-20000}"
LARGE="${LARGE:-100}"
cd "$HERE"
swift build -c release --product tessera-ws-bench > /dev/null
BENCH="$(swift build -c release --show-bin-path)/tessera-ws-bench"
python3 -c "import websockets" 2>/dev/null || { echo "bench websocket: websockets is missing (Scripts/bootstrap.sh installs it)" >&2; exit 1; }
WORK="$(mktemp -d)"
python3 QualityGates/WebSocket/echo_server.py > "$WORK/port.python" 2> "$WORK/server.err" &
PYSERVER=$!
"$BENCH" --serve > "$WORK/port.tessera" &
TSERVER=$!
trap 'kill $PYSERVER $TSERVER 2>/dev/null; rm -rf "$WORK"' EXIT
cc -O2 -o "$WORK/pingpong" QualityGates/WebSocket/loopback_pingpong.c -lpthread
cc -O2 -o "$WORK/wsceiling" QualityGates/WebSocket/ws_ceiling_client.c
for _ in $(seq 1 100); do [ -s "$WORK/port.python" ] && [ -s "$WORK/port.tessera" ] && break; sleep 0.05; done
cat > "$WORK/client.py" <<'PY'
import asyncio, sys, time
import websockets
url, small, large = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
async def main():
    async with websockets.connect(url, max_size=64 << 20, compression=None) as ws:
        async def run(kind, count, message):
            start = time.perf_counter()
            for _ in range(count):
                await ws.send(message)
                if await ws.recv() != message: sys.exit("an echo differs")
            print(kind, count, "%.4f" % (time.perf_counter() - start), flush=True)
        await run("rt-small", small, "x" * 32)
        await run("rt-large", large, bytes((i * 131) & 0xFF for i in range(1 << 20)))
asyncio.run(main())
PY
cpu() { # label, command...: runs it, appends its rows and its user+sys CPU seconds under $WORK/<label>
  local label="$1"; shift
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" >> "$WORK/$label.txt"
  awk '{print $1 + $2}' "$WORK/time" >> "$WORK/$label.cpu"
}
for server in python tessera; do
  URL="ws://127.0.0.1:$(head -1 "$WORK/port.$server")/"
  for _ in $(seq 1 "$REPS"); do
    cpu "tessera-$server" "$BENCH" "$URL" --small "$SMALL" --large "$LARGE"
    cpu "python-$server" python3 "$WORK/client.py" "$URL" "$SMALL" "$LARGE"
    cpu "ceiling-$server" "$WORK/wsceiling" "$(head -1 "$WORK/port.$server")" "$SMALL"
  done
done
for _ in $(seq 1 "$REPS"); do cpu ceiling "$WORK/pingpong" "$SMALL"; done
python3 - "$WORK" "$SMALL" "$LARGE" "$REPS" <<'PY'
import statistics, sys
work, small, large, reps = sys.argv[1:]
def load(label):
    rows = {}
    for line in open(f"{work}/{label}.txt"):
        kind, count, seconds = line.split()
        rows.setdefault(kind, []).append(int(count) / float(seconds))
    cpu = statistics.median(float(x) for x in open(f"{work}/{label}.cpu"))
    return {kind: statistics.median(rates) for kind, rates in rows.items()}, cpu
print(f"bench websocket: {small} round trips of 32 B text and {large} of 1 MiB binary per run, median of {reps} runs, loopback")
print("%-34s %-9s %14s %17s %7s" % ("server", "kind", "tessera RT/s", "websockets RT/s", "ratio"))
ratios = []   # the lines bench.sh --check compares with the baseline, printed last
for server, name in (("python", "websockets (Python) echo server"), ("tessera", "tessera test echo server")):
    (ours, our_cpu), (theirs, their_cpu) = load(f"tessera-{server}"), load(f"python-{server}")
    (minimal, _) = load(f"ceiling-{server}")
    for kind in ours:
        print("%-34s %-9s %14.0f %17.0f %6.2fx" % (name, kind, ours[kind], theirs[kind], ours[kind] / theirs[kind]))
        ratios.append("ratio websocket.%s-server.%s %.4f" % (server, kind, ours[kind] / theirs[kind]))
    for kind in minimal:
        print("%-34s %-9s C client ceiling %.0f RT/s: no client can pass %.2fx the websockets client here; tessera reaches %.0f %% of it"
              % ("", kind, minimal[kind], minimal[kind] / theirs[kind], 100 * ours[kind] / minimal[kind]))
    print("%-34s client CPU s per run (median): tessera %.2f, websockets %.2f" % ("", our_cpu, their_cpu))
(ceiling, _) = load("ceiling")
print("%-34s %-9s %14.0f RT/s: the most any client can reach here" % ("loopback ceiling (C send/recv)", "rt-small", ceiling["rt-small"]))
print("\n".join(ratios))
PY
