#!/usr/bin/env python3
"""Hostile and idle clients of a loopback HTTP server, for Scripts/bench-server.sh.

    server-abuse.py idle PORT N SECONDS        N connections that connect and send nothing,
                                               each reconnected when the server closes it
    server-abuse.py slowloris PORT N SECONDS   N connections each sending a request head one
                                               byte a second, never finishing it, each
                                               reconnected when the server closes it
    server-abuse.py latency PORT PATH COUNT    COUNT GETs of PATH one after another, each on a
                                               new connection; prints "max-ms X p99-ms Y
                                               over-100ms N"

The holders print "ready N" once N connections are open, then "closed M" at the end (how many
the server closed meanwhile).
"""
import asyncio, socket, sys, time


async def hold(port, kind, seconds, ready, counts):
    deadline = time.monotonic() + seconds
    head = b"GET /video/seg_00.ts HTTP/1.1\r\nHost: abuse\r\nX-Slow: " + b"a" * 4000
    first = True
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.2)
            continue
        if first:
            ready.release()
            first = False
        closed = False
        index = 0
        while time.monotonic() < deadline and not closed:
            if kind == "slowloris" and index < len(head):
                try:
                    writer.write(head[index:index + 1])
                    await writer.drain()
                except (ConnectionError, OSError):
                    closed = True
                    break
                index += 1
            try:
                data = await asyncio.wait_for(reader.read(1), timeout=1.0)
                if data == b"":
                    closed = True
            except asyncio.TimeoutError:
                pass
            except (ConnectionError, OSError):
                closed = True
        if closed:
            counts["closed"] += 1
        writer.close()


async def holders(kind, port, count, seconds):
    ready = asyncio.Semaphore(0)
    counts = {"closed": 0}
    tasks = [asyncio.create_task(hold(port, kind, seconds, ready, counts)) for _ in range(count)]
    for _ in range(count):
        await ready.acquire()
    print(f"ready {count}", flush=True)
    await asyncio.gather(*tasks)
    print(f"closed {counts['closed']}", flush=True)


def latency(port, path, count):
    times = []
    for _ in range(count):
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            while s.recv(65536):
                pass
        times.append((time.monotonic() - start) * 1000)
    times.sort()
    slow = sum(1 for t in times if t >= 100)
    print(f"max-ms {times[-1]:.1f} p99-ms {times[int(len(times) * 0.99) - 1]:.1f} over-100ms {slow}", flush=True)


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "latency":
        latency(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        asyncio.run(holders(what, int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
