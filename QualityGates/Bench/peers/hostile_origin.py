#!/usr/bin/env python3
"""A hostile HLS origin for Scripts/bench-bounds.sh, on 127.0.0.1:PORT (threads, one per client):
  /endless/index.m3u8   N segments, each an endless chunked body (as fast as it is read)
  /stall/index.m3u8     N segments, each announcing SIZE bytes, sending all but 1 KiB, then silent
  /trickle/index.m3u8   one segment announcing 10 MB, sent 2 bytes a second
  /dead/index.m3u8      accepts, reads the request, never answers
Usage: hostile_origin.py PORT N SIZE"""
import socket, sys, threading, time

PORT, N, SIZE = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
CHUNK = b"\x47" * 65536

def playlist(kind, count):
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
    for i in range(count):
        lines += ["#EXTINF:4,", f"seg_{i}.ts"]
    return ("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n").encode()

def serve(conn):
    try:
        request = b""
        while b"\r\n\r\n" not in request:
            data = conn.recv(4096)
            if not data:
                return
            request += data
        path = request.split(b" ")[1].decode()
        kind = path.split("/")[1]
        if kind == "dead":
            time.sleep(3600)
            return
        if path.endswith(".m3u8"):
            body = playlist(kind, 1 if kind == "trickle" else N)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.apple.mpegurl\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
            return
        if kind == "endless":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            frame = b"%x\r\n" % len(CHUNK) + CHUNK + b"\r\n"
            while True:
                conn.sendall(frame)
        if kind == "stall":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % SIZE)
            sent = 0
            while sent < SIZE - 1024:
                piece = CHUNK[:min(len(CHUNK), SIZE - 1024 - sent)]
                conn.sendall(piece)
                sent += len(piece)
            time.sleep(3600)
        if kind == "trickle":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n")
            while True:
                conn.sendall(b"\x47\x47")
                time.sleep(1)
    except OSError:
        pass
    finally:
        conn.close()

listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", PORT))
listener.listen(128)
while True:
    conn, _ = listener.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
