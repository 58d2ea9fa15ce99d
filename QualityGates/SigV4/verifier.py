"""A loopback server that checks AWS Signature V4 as AWS would: for each request it signs the
same method, URL and signed headers with botocore (the access key's secret, the request's own
X-Amz-Date) and answers 200 "signature verified" when the Authorization header is the one
botocore makes, else 403 with both. Prints its port on the first line.

    verifier.py <access key id> <secret access key> <region> <service>
"""
import datetime, http.server, sys
from unittest import mock

import botocore.auth as auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

KEY, SECRET, REGION, SERVICE = sys.argv[1:5]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.check(b"")

    def do_PUT(self):
        self.check(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

    def check(self, body):
        given = self.headers.get("Authorization", "")
        signed = given.partition("SignedHeaders=")[2].partition(",")[0].split(";")
        headers = {name: self.headers.get(name, "") for name in signed if name != "host"}
        token = self.headers.get("X-Amz-Security-Token")
        request = AWSRequest(method=self.command, url="http://%s%s" % (self.headers["Host"], self.path), headers=headers, data=body)
        stamp = datetime.datetime.strptime(self.headers.get("X-Amz-Date", "19700101T000000Z"), "%Y%m%dT%H%M%SZ")
        kind = auth.S3SigV4Auth if SERVICE == "s3" else auth.SigV4Auth
        with mock.patch("botocore.auth.get_current_datetime", return_value=stamp):
            kind(Credentials(KEY, SECRET, token), SERVICE, REGION).add_auth(request)
        good = given == request.headers["Authorization"]
        text = b"signature verified\n" if good else ("expected %s\ngot %s\n" % (request.headers["Authorization"], given)).encode()
        self.send_response(200 if good else 403)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
