import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

@Suite("DownloadManager over libcurl")
struct DownloadManagerTests {
    static let payload = TemporaryDirectory.pattern(count: 1_000_000, seed: 11)

    /// A manager over a client of `harness`, writing into `folder/out`, state in `folder/state.log`.
    private func manager(_ harness: ClientHarness, _ folder: TemporaryDirectory,
                         _ adjust: (inout DownloadManager.Configuration) -> Void = { _ in }) throws -> DownloadManager {
        var configuration = DownloadManager.Configuration()
        configuration.retry.jitter = 0
        adjust(&configuration)
        let client = try harness.client { $0.pipeline.retry = .never }
        return try DownloadManager(client: client, folder: folder.url.appendingPathComponent("out"),
                                   stateFile: folder.url.appendingPathComponent("state.log"),
                                   configuration: configuration, clock: harness.clock)
    }

    /// Events until `id`'s terminal one (or a paused event when `untilPaused`); other downloads'
    /// events are consumed, so use it with one download in flight.
    private func events(_ manager: DownloadManager, _ id: String, untilPaused: Bool = false) async -> [DownloadEvent.Kind] {
        var kinds: [DownloadEvent.Kind] = []
        for await event in manager.events where event.id == id {
            kinds.append(event.kind)
            switch event.kind {
            case .completed, .failed: return kinds
            case .paused where untilPaused: return kinds
            default: continue
            }
        }
        return kinds
    }

    private func url(_ harness: ClientHarness, _ path: String) -> URL {
        harness.server.baseURL.appendingPathComponent(path)
    }

    @Test("a download completes exactly; events are ordered and the last progress precedes completion")
    func completes() async throws {
        let resource = RangeResource(Self.payload)
        let harness = try ClientHarness(resource.reply)
        let folder = try TemporaryDirectory()
        let manager = try manager(harness, folder)
        let id = try await manager.add(url(harness, "files/big.bin"))
        await manager.start()
        let kinds = await events(manager, id)
        guard case .completed(let file) = kinds.last else { Issue.record("not completed: \(kinds)"); return }
        let bytes = try Data(contentsOf: file)
        #expect(file.lastPathComponent == "big.bin" && bytes == Data(Self.payload))
        #expect(kinds.first == .added && kinds.contains(.started(offset: 0)))
        #expect(kinds.dropLast().last == .progress(TransferProgress(completed: 1_000_000, expected: 1_000_000)))
        let items = await manager.items
        #expect(items.first?.state == .completed(file) && items.first?.bytesReceived == 1_000_000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["big.bin"])
    }

    @Test("a cut transfer resumes with Range and If-Range from the partial file")
    func resumesAfterCut() async throws {
        let resource = RangeResource(Self.payload)
        resource.cutNext(after: 300_000, 200_000)
        let harness = try ClientHarness(resource.reply)
        let folder = try TemporaryDirectory()
        let manager = try manager(harness, folder)
        let id = try await manager.add(url(harness, "big.bin"))
        await manager.start()
        let kinds = await events(manager, id)
        guard case .completed(let file) = kinds.last else { Issue.record("not completed: \(kinds)"); return }
        #expect(try Data(contentsOf: file) == Data(Self.payload))
        #expect(kinds.filter { if case .started = $0 { true } else { false } } == [.started(offset: 0), .started(offset: 300_000), .started(offset: 500_000)])
        #expect(harness.server.log.map { $0.headers["Range"] } == [nil, "bytes=300000-", "bytes=500000-"])
        #expect(harness.server.log.dropFirst().allSatisfy { $0.headers["If-Range"] == "\"v1\"" })
    }

    @Test("a changed resource (If-Range fails) restarts from zero; 503 waits for Retry-After")
    func restartsWhenChanged() async throws {
        let resource = RangeResource(Self.payload)
        resource.cutNext(after: 400_000)
        let harness = try ClientHarness(resource.reply)
        let folder = try TemporaryDirectory()
        let manager = try manager(harness, folder) { $0.retry.maximumAttempts = 1 }
        let id = try await manager.add(url(harness, "big.bin"))
        await manager.start()
        guard case .failed = await events(manager, id).last else { Issue.record("the cut should fail the single attempt"); return }
        let changed = Array(TemporaryDirectory.pattern(count: 700_000, seed: 12))
        resource.change(to: changed, etag: "\"v2\"")
        resource.busy(1)
        let retrying = try self.manager(harness, folder) { $0.retry.maximumAttempts = 3 }
        try await retrying.resume(id)
        await retrying.start()
        let kinds = await events(retrying, id)
        guard case .completed(let file) = kinds.last else { Issue.record("not completed: \(kinds)"); return }
        #expect(try Data(contentsOf: file) == Data(changed))
        #expect(kinds.contains(.restarted) && kinds.contains(.started(offset: 400_000)))
        #expect(harness.clock.sleeps == [.seconds(2)])
        #expect(harness.server.log.last?.headers["If-Range"] == "\"v1\"")
    }

    @Test("pause keeps the partial file; a new manager on the same state resumes it after a restart")
    func pauseAndRestart() async throws {
        let resource = RangeResource(Self.payload)
        resource.cutNext(after: 250_000)
        let harness = try ClientHarness(resource.reply)
        let folder = try TemporaryDirectory()
        var id = ""
        do {
            let first = try manager(harness, folder) { $0.retry.maximumAttempts = 1 }
            id = try await first.add(url(harness, "big.bin"), fileName: "movie.bin")
            await first.start()
            let kinds = await events(first, id)   // one attempt allowed: the cut fails it
            guard case .failed = kinds.last else { Issue.record("expected a failure: \(kinds)"); return }
            try await first.pause(id)
            await first.shutdown()
        }
        let partial = folder.url.appendingPathComponent("out/.\(id).tessera-download")
        #expect((try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) == 250_000)
        let second = try manager(harness, folder)
        #expect(await second.items.first?.bytesReceived == 250_000)
        try await second.resume(id)
        await second.start()
        let kinds = await events(second, id)
        guard case .completed(let file) = kinds.last else { Issue.record("not completed: \(kinds)"); return }
        let bytes = try Data(contentsOf: file)
        #expect(file.lastPathComponent == "movie.bin" && bytes == Data(Self.payload))
        #expect(kinds.contains(.started(offset: 250_000)))
    }

    @Test("a URL with a query is not stored: after a restart it needs the URL again")
    func signedURLNotStored() async throws {
        let resource = RangeResource(Self.payload)
        let harness = try ClientHarness(resource.reply)
        let folder = try TemporaryDirectory()
        var id = ""
        do {
            let first = try manager(harness, folder)
            id = try await first.add(URL(string: harness.server.baseURL.absoluteString + "/big.bin?sig=TOPSECRET")!)
            _ = try await first.add(URL(string: harness.server.baseURL.absoluteString
                                        + "/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXZhbHVl/f.bin")!)
            await first.shutdown()   // never started
        }
        let state = String(decoding: try Data(contentsOf: folder.url.appendingPathComponent("state.log")), as: UTF8.self)
        #expect(!state.contains("TOPSECRET") && !state.contains("eyJ") && !state.contains("big.bin?"))
        let second = try manager(harness, folder)
        #expect(await second.items.map(\.state) == [.needsURL, .needsURL])
        let wrong = await #expect(throws: HTTPError.self) { try await second.resume(id, url: URL(string: harness.server.baseURL.absoluteString + "/other.bin?sig=x")!) }
        #expect(wrong?.code == .urlMismatch)
        try await second.resume(id, url: URL(string: harness.server.baseURL.absoluteString + "/big.bin?sig=FRESH")!)
        await second.start()
        let kinds = await events(second, id)
        guard case .completed = kinds.last else { Issue.record("not completed: \(kinds)"); return }
    }

    @Test("unsafe names are replaced, an existing file is never replaced, and a 404 fails without retries")
    func namesAndFailures() async throws {
        let resource = RangeResource(Array(Self.payload.prefix(1000)))
        let harness = try ClientHarness { request in
            request.path.hasSuffix("missing.bin") ? ScriptedServer.Reply(404) : resource.reply(request)
        }
        let folder = try TemporaryDirectory()
        _ = try folder.write("out/report.pdf", [9])
        let manager = try manager(harness, folder)
        let unsafe = try await manager.add(url(harness, "docs/report.pdf"), fileName: "../../etc/passwd")
        let missing = try await manager.add(url(harness, "missing.bin"))
        await manager.start()
        var terminal: [String: DownloadEvent.Kind] = [:]
        for await event in manager.events {
            switch event.kind {
            case .completed, .failed: terminal[event.id] = event.kind
            default: break
            }
            if terminal.count == 2 { break }
        }
        guard case .completed(let file)? = terminal[unsafe] else { Issue.record("not completed: \(terminal)"); return }
        #expect(file.lastPathComponent == "report (1).pdf")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("out/report.pdf")) == Data([9]))
        #expect(terminal[missing] == .failed(code: .unacceptableStatus, message: "The download was answered 404."))
        #expect(harness.server.log.filter { $0.path.hasSuffix("missing.bin") }.count == 1)
    }
}
