#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraHTTP
import TesseraSupport

/// A real TLS origin on loopback for trust tests: nginx-light serving a folder over HTTPS with
/// HTTP/2, its certificate issued for `127.0.0.1` and `localhost` by a private CA that this
/// helper creates with the `openssl` command line. Exposes the CA bundle and the server key's
/// SPKI pin (`sha256//…`).
public final class TLSOrigin: Sendable {
    /// The HTTPS port on 127.0.0.1.
    public let port: UInt16
    /// The PEM file of the private CA that issued the server certificate.
    public let certificateAuthorities: URL
    /// The server key's pin, `sha256//<base64 of SHA-256 of its SubjectPublicKeyInfo>`.
    public let pin: String
    private let folder: TemporaryDirectory
    private let stopped = Lock(false)

    /// Creates the CA and certificate, then starts nginx serving `root` — and, with
    /// `webSocketUpstream`, proxying `/ws/…` WebSocket upgrades to that loopback port (wss tests);
    /// with `logRequests`, each request's protocol, connection and URI go to `requests`.
    public init(root: URL, webSocketUpstream: UInt16? = nil, logRequests: Bool = false) throws {
        folder = try TemporaryDirectory()
        let dir = folder.url.path
        try ExternalProcess.shell("""
            cd '\(dir)' && mkdir -p logs tmp && \
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem \
              -days 2 -subj '/CN=Tessera Test CA' -addext basicConstraints=critical,CA:TRUE && \
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
              -subj '/CN=localhost' && \
            printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > ext.cnf && \
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile ext.cnf -out server.pem
            """)
        certificateAuthorities = folder.url.appendingPathComponent("ca.pem")
        let digest = try ExternalProcess.shell("cd '\(dir)' && openssl pkey -in server.key -pubout -outform DER | openssl dgst -sha256 -binary | base64")
        pin = "sha256//" + digest.trimmingCharacters(in: .whitespacesAndNewlines)
        var started: UInt16?
        for _ in 0..<5 where started == nil {
            let candidate = try SaturatedListener.unusedPort()
            let user = geteuid() == 0 ? "user root root;" : ""
            let config = folder.url.appendingPathComponent("nginx.conf")
            try Data("""
                \(user)
                worker_processes 1; pid nginx.pid; error_log logs/error.log warn;
                events { worker_connections 256; }
                http { \(logRequests ? "log_format requests '$server_protocol $connection $request_uri'; access_log logs/requests.log requests;" : "access_log off;")
                  client_body_temp_path tmp; proxy_temp_path tmp; fastcgi_temp_path tmp; uwsgi_temp_path tmp; scgi_temp_path tmp;
                  server { listen 127.0.0.1:\(candidate) ssl http2; ssl_certificate server.pem; ssl_certificate_key server.key;
                           root \(root.path); \(Self.webSocketLocation(webSocketUpstream)) } }
                """.utf8).write(to: config)
            // With `daemon on` (the default) nginx exits once its sockets are bound and the
            // master has detached: success means the port is ready.
            // A failed start is most likely a port taken meanwhile: try another one.
            if (try? ExternalProcess.shell("cd '\(dir)' && nginx -p '\(dir)/' -c nginx.conf >/dev/null 2>>logs/start.log")) != nil {
                started = candidate
            }
        }
        guard let started else { throw SocketFailure(description: "nginx could not start (see its logs)") }
        port = started
    }

    deinit { shutdown() }

    private static func webSocketLocation(_ upstream: UInt16?) -> String {
        guard let upstream else { return "" }
        return """
            location /ws/ { proxy_pass http://127.0.0.1:\(upstream); proxy_http_version 1.1; proxy_buffering off;
              proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; }
            """
    }

    /// Each request served so far, `PROTOCOL CONNECTION URI` (with `logRequests`).
    public var requests: [String] {
        let log = folder.url.appendingPathComponent("logs/requests.log")
        // No log yet: nothing was served.
        return ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// `https://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// `https://localhost:<port>`.
    public var localhostURL: URL { URL(string: "https://localhost:\(port)")! }

    /// Stops nginx.
    public func shutdown() {
        guard !stopped.withLock({ was in defer { was = true }; return was }) else { return }
        // No pid file: nginx never started, so there is nothing to stop.
        if let text = try? String(contentsOf: folder.url.appendingPathComponent("nginx.pid"), encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
        }
    }
}
