import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraPlayback
import TesseraSupport
import TesseraTestSupport

@Suite("PackageServer: a verified package over loopback, and nothing else")
struct PackageServerTests {
    /// A package and its server.
    final class Served: Sendable {
        let harness: PackageHarness
        let server: PackageServer

        let notices = Lock<[String]>([])

        init(log: AccessLog? = nil) async throws {
            harness = try await PackageHarness.packaged()
            let notices = self.notices
            server = try PackageServer(folder: harness.destination, log: log) { notice in notices.withLock { $0.append(notice) } }
        }

        deinit { server.shutdown() }

        func get(_ target: String, headers: String = "", method: String = "GET") throws -> RawHTTPClient.Reply {
            try RawHTTPClient.exchange(port: server.port, "\(method) \(target) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
        }

        func file(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: harness.destination.appendingPathComponent(path))) }
    }

    @Test("playlists, media, ranges, HEAD and the player page, each with its media type")
    func serves() async throws {
        let served = try await Served()
        #expect(served.server.entryURL.absoluteString == "http://127.0.0.1:\(served.server.port)/master.m3u8")
        let master = try served.get("/master.m3u8")
        let masterFile = try served.file("master.m3u8")
        #expect(master.status == 200 && master.body == masterFile)
        #expect(master.headers["content-type"] == "application/vnd.apple.mpegurl" && master.headers["cache-control"] == "no-cache")
        let segment = try served.file("video/seg_001.ts")
        let whole = try served.get("/video/seg_001.ts")
        #expect(whole.status == 200 && whole.body == segment && whole.headers["content-type"] == "video/mp2t")
        let range = try served.get("/video/seg_001.ts", headers: "Range: bytes=188-375\r\n")
        #expect(range.status == 206 && range.body == Array(segment[188...375]))
        #expect(range.headers["content-range"] == "bytes 188-375/\(segment.count)")
        let head = try served.get("/video/seg_001.ts", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(segment.count)")
        #expect(try served.get("/subtitles-1/index0.vtt").headers["content-type"] == "text/vtt")
        let page = try served.get("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(String(decoding: page.body, as: UTF8.self).contains("<video controls autoplay muted playsinline src=\"master.m3u8\">"))
        #expect(try served.get("/manifest.json").headers["content-type"] == "application/json")
        #expect(try served.get("/video/seg_001.ts", method: "DELETE").status == 405)
    }

    @Test("ETag: If-None-Match gets 304, an If-Range that does not match gets the whole file")
    func validators() async throws {
        let served = try await Served()
        let first = try served.get("/video/seg_000.ts")
        let etag = try #require(first.headers["etag"])
        #expect(etag.hasPrefix("\"") && etag.count == 34)
        #expect(try served.get("/video/seg_000.ts", headers: "If-None-Match: \(etag)\r\n").status == 304)
        #expect(try served.get("/video/seg_000.ts", headers: "Range: bytes=0-9\r\nIf-Range: \(etag)\r\n").status == 206)
        let stale = try served.get("/video/seg_000.ts", headers: "Range: bytes=0-9\r\nIf-Range: \"0000\"\r\n")
        #expect(stale.status == 200 && stale.body == first.body)
    }

    @Test("nothing outside the frozen set is reachable", arguments: [
        "/../etc/passwd", "/video/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/video/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd", "/etc/passwd", "/video", "/video/", "/.tessera-checkpoint", "/video/index.m3u8/", "/VIDEO/seg_000.ts",
    ])
    func unreachable(_ target: String) async throws {
        let served = try await Served()
        #expect(try served.get(target).status == 404, "\(target)")
    }

    @Test("playlists are frozen at start; a media file swapped for a link or another size is not served")
    func frozen() async throws {
        let served = try await Served()
        let original = try served.file("video/index.m3u8")
        try Data("#EXTM3U\n#EXTINF:1,\nhttp://example.com/x.ts\n".utf8).write(to: served.harness.destination.appendingPathComponent("video/index.m3u8"))
        #expect(try served.get("/video/index.m3u8").body == original)
        let segment = served.harness.destination.appendingPathComponent("video/seg_002.ts")
        try FileManager.default.removeItem(at: segment)
        try FileManager.default.createSymbolicLink(atPath: segment.path, withDestinationPath: "/etc/passwd")
        #expect(try served.get("/video/seg_002.ts").status == 404)
        try Data("short".utf8).write(to: served.harness.destination.appendingPathComponent("video/seg_003.ts"))
        #expect(try served.get("/video/seg_003.ts").status == 404)
    }

    @Test("a segment rewritten in place at its size after verification is never served under its identity: 404 (no 304 either), told once")
    func rewrittenInPlace() async throws {
        let served = try await Served()
        let path = "video/seg_001.ts"
        let original = try served.file(path)
        let etag = try #require(try served.get("/" + path).headers["etag"])
        // Same size, same inode, other bytes (and so another modification time).
        let handle = try FileHandle(forWritingTo: served.harness.destination.appendingPathComponent(path))
        try handle.seek(toOffset: 1000)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 188))
        try handle.close()
        #expect(try served.file(path).count == original.count)
        #expect(try served.get("/" + path).status == 404)
        #expect(try served.get("/" + path, headers: "If-None-Match: \(etag)\r\n").status == 404)
        #expect(served.notices.withLock { $0 } == ["\(path) changed after the package was verified (its modification time); it is not served"])
        #expect(try served.get("/video/seg_000.ts").status == 200, "the others are served as before")
    }

    @Test("a package that does not verify is refused with the first finding")
    func refusesTampered() async throws {
        let harness = try await PackageHarness.packaged()
        let path = harness.destination.appendingPathComponent("audio-1/seg_001.ts")
        var bytes = try Data(contentsOf: path)
        bytes[10] ^= 0xFF
        try bytes.write(to: path)
        #expect { try PackageServer(folder: harness.destination) } throws: { error in
            guard let error = error as? PlaybackError else { return false }
            return error.code == .invalidPackage && error.message.contains("digest-mismatch audio-1/seg_001.ts")
        }
    }

    @Test("the access log has one line per request: method, path without query, status, bytes")
    func accessLog() async throws {
        let folder = try TemporaryDirectory()
        let logPath = folder.url.appendingPathComponent("access.log").path
        let served = try await Served(log: try AccessLog(path: logPath))
        _ = try served.get("/video/seg_001.ts?token=abc", headers: "Range: bytes=0-99\r\n")
        _ = try served.get("/nowhere")
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
        #expect(lines == ["GET /video/seg_001.ts 206 100", "GET /nowhere 404 4"])
    }
}
