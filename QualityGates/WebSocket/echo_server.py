#!/usr/bin/env python3
"""A WebSocket echo server on 127.0.0.1 (the Python `websockets` package, PyPI): the peer the
CLI contract and the WebSocket benchmark run against. Prints its port on stdout once listening.

  echo_server.py [--port N] [--close-after N]   # --close-after: close 1000 after N messages
  Messages starting with "close:<code>" make the server close with that code.
"""
import argparse
import asyncio
import sys

import websockets


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--close-after", type=int, default=0)
    args = parser.parse_args()

    async def echo(connection):
        count = 0
        async for message in connection:
            if isinstance(message, str) and message.startswith("close:"):
                await connection.close(int(message[6:]), "asked to")
                return
            await connection.send(message)
            count += 1
            if args.close_after and count >= args.close_after:
                await connection.close(1000, "enough")
                return

    async with websockets.serve(echo, "127.0.0.1", args.port, max_size=64 << 20, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
