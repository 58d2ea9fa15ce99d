#!/usr/bin/env python3
"""Valid MPEG-TS of a given size for the benchmarks, which package and record what they serve
(and packages and recordings check each segment as media): the SDT, PAT and PMT of a fixture
segment, then null packets (PID 0x1FFF) with random payloads — incompressible, cheap to make.

    synthetic-ts.py BYTES OUT [OUT…]     each OUT gets its own payloads; BYTES rounded down to
                                         whole 188-byte packets (at least four)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
fixture = open(os.path.join(HERE, "..", "Fixtures", "a_ts_vod", "seg_000.ts"), "rb").read()
tables = fixture[:3 * 188]
packets = max(4, int(sys.argv[1]) // 188)
for out in sys.argv[2:]:
    payload = os.urandom((packets - 3) * 184)
    body = bytearray(tables)
    for i in range(packets - 3):
        body += b"\x47\x1f\xff\x10" + payload[i * 184:(i + 1) * 184]
    with open(out, "wb") as f:
        f.write(body)
