#!/usr/bin/env bash
# AWS Signature V4 signing throughput: tessera's signer (tessera-sign-bench, release) vs
# botocore's (PyPI) on the same three kinds of request — a GET with a query, an S3 PUT of
# 1 KiB (its body hashed), a presigned S3 GET — with the same credentials and instant, REPS
# paired runs, the median of the pairs' ratios. Called by Scripts/bench.sh sigv4.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
REPS="${1:-3}"
COUNT="${COUNT:-20000}"
cd "$HERE"
swift build -c release --product tessera-sign-bench > /dev/null
BENCH="$(swift build -c release --show-bin-path)/tessera-sign-bench"
python3 -c "import botocore" 2>/dev/null || { echo "bench sigv4: botocore is missing (Scripts/bootstrap.sh installs it)" >&2; exit 1; }
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/boto.py" <<'PY'
import datetime, sys, time
from unittest import mock
import botocore.auth as auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
count = int(sys.argv[1])
creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "session-token")
body = b"a" * 1024
query = "https://abc123.execute-api.eu-west-1.amazonaws.com/prod/items?limit=50&start=token%2F1&filter=a%20b"
obj = "https://examplebucket.s3.eu-west-1.amazonaws.com/photos/my%20photo.jpg"
def run(kind, work):
    start = time.perf_counter()
    for _ in range(count): work()
    print(kind, count, "%.4f" % (time.perf_counter() - start), flush=True)
with mock.patch("botocore.auth.get_current_datetime", return_value=datetime.datetime(2015, 8, 30, 12, 36, 0)):
    def get():
        r = AWSRequest(method="GET", url=query, headers={"Content-Type": "application/json"})
        auth.SigV4Auth(creds, "execute-api", "eu-west-1").add_auth(r)
    def put():
        r = AWSRequest(method="PUT", url=obj, data=body, headers={})
        auth.S3SigV4Auth(creds, "s3", "eu-west-1").add_auth(r)
    def presign():
        r = AWSRequest(method="GET", url=obj, headers={})
        auth.S3SigV4QueryAuth(creds, "s3", "eu-west-1", expires=3600).add_auth(r)
    for kind, work in (("get-query", get), ("s3-put-1k", put), ("s3-presign", presign)):
        if len(sys.argv) < 3 or sys.argv[2] == kind: run(kind, work)
PY
# Paired runs: each kind signed by tessera, then at once by botocore, one ratio per pair, the
# median of the pairs (a slow spell of this shared machine hits one pair, not every run of one
# side). botocore signs a fifth as many: each side runs about a second.
for _ in $(seq 1 "$REPS"); do
  for kind in get-query s3-put-1k s3-presign; do
    "$BENCH" --count "$COUNT" --kind "$kind" >> "$WORK/tessera.txt"
    python3 "$WORK/boto.py" "$((COUNT / 5))" "$kind" >> "$WORK/botocore.txt"
  done
done
python3 - "$WORK/tessera.txt" "$WORK/botocore.txt" "$COUNT" "$REPS" <<'PY'
import statistics, sys
def load(path):
    rows = {}
    for line in open(path):
        kind, count, seconds = line.split()
        rows.setdefault(kind, []).append(int(count) / float(seconds))
    return rows
ours, theirs = load(sys.argv[1]), load(sys.argv[2])
print("bench sigv4: %s signatures per kind (botocore a fifth), %s paired runs, medians, 1 core each, same inputs and instant" % (sys.argv[3], sys.argv[4]))
print("%-12s %16s %16s %8s" % ("kind", "tessera /s", "botocore /s", "ratio"))
ratios = {kind: statistics.median(a / b for a, b in zip(ours[kind], theirs[kind])) for kind in ours}
for kind in ours:
    print("%-12s %16.0f %16.0f %7.1fx" % (kind, statistics.median(ours[kind]), statistics.median(theirs[kind]), ratios[kind]))
for kind in ours:   # the lines bench.sh --check compares with the baseline
    print("ratio sigv4.%s %.4f" % (kind, ratios[kind]))
PY
