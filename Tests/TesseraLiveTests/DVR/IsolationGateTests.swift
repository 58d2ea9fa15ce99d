import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraTestSupport

/// The isolation gate (`Scripts/run_hls_quality_gates.sh --only isolation` runs this suite with
/// the recordings' own isolation test): live recordings and VOD downloads at once in one process,
/// on one libcurl engine and one `HLSClient`, against the LL-HLS test origins and a VOD origin
/// serving the fixtures. None may see another's segments, keys, failure or cancellation.
@Suite("Isolation gate: live recordings and VOD downloads in one process on one HTTP client")
struct IsolationGateTests {
    enum Outcome: Sendable {
        case recorded(RecordingReport)
        case downloaded(DownloadReport)
        case packaged(PackageReport)
        case failed(HLSError)
    }

    @Test("four recordings, two single-file downloads and three packages at once: each its own bytes and keys, failures and a cancellation alone")
    func recordingsAndDownloads() async throws {
        let transport = try CurlTransport.loopback()
        defer { transport.shutdown() }
        let client = IsolatedStreams.client(transport)
        let root = try TemporaryDirectory()
        for entry in try FixtureStore.entries() {
            _ = try root.write(entry.path, try FixtureStore.bytes(entry.path))
            _ = try root.write("copy/" + entry.path, try FixtureStore.bytes(entry.path))
        }
        let vod = try OriginSimulator(root: root.url)
        defer { vod.shutdown() }
        // The package that is cancelled takes its own copy, whose audio hangs: it cannot finish
        // before the cancellation reaches it.
        vod.inject(.hang, path: "/copy/e_multivariant/audio/seg_001.ts")
        let folder = try TemporaryDirectory()
        func destination(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

        let streams = try IsolatedStreams(count: 4, silent: 3)   // stream 3 serves no media
        var jobs: [String: Task<Outcome, Never>] = [:]
        for index in 0..<4 {
            jobs["rec-\(index)"] = Task {
                switch await streams.record(index, to: destination("rec-\(index)"), client: client) {
                case .success(let report): .recorded(report)
                case .failure(let error): .failed(error)
                }
            }
        }
        for (name, path) in [("file-aes", "/c_ts_aes_iv/index.m3u8"), ("file-missing", "/missing/index.m3u8")] {
            jobs[name] = Task {
                var options = SingleFileDownload.Options()
                options.bounds.resourceDeadline = nil   // the immediate clock would expire it at once
                let job = SingleFileDownload(playlistURL: vod.url(path), destination: destination(name + ".ts"), client: client, options: options)
                do throws(HLSError) { return .downloaded(try await job.run()) } catch { return .failed(error) }
            }
        }
        // The cancelled package is cancelled at its first event, while the others run.
        let (started, signal) = AsyncStream<Void>.makeStream()
        for name in ["package", "package-cancelled", "package-missing"] {
            jobs[name] = Task {
                var options = PackageDownload.Options()
                options.capacity = .bestEffort
                options.bounds.resourceDeadline = nil
                let path = ["package-missing": "/missing/master.m3u8", "package-cancelled": "/copy/e_multivariant/master.m3u8"][name]
                    ?? "/e_multivariant/master.m3u8"
                let job = PackageDownload(url: vod.url(path), destination: destination(name), client: client, options: options)
                do throws(HLSError) {
                    return .packaged(try await job.run { _ in if name == "package-cancelled" { signal.yield() } })
                } catch { return .failed(error) }
            }
        }
        for await _ in started { break }
        jobs["package-cancelled"]?.cancel()

        for (name, job) in jobs.sorted(by: { $0.key < $1.key }) {
            let outcome = await job.value
            switch (name, outcome) {
            case ("rec-3", .failed(let error)): #expect(error.code == .nothingRecorded, "\(error)")
            case ("package-cancelled", .failed(let error)): #expect(error.code == .cancelled, "\(error)")
            case ("file-missing", .failed(let error)), ("package-missing", .failed(let error)):
                #expect(error.code == .httpStatus, "\(name): \(error)")
            case (_, .recorded(let report)):
                try streams.expectOwn(report, stream: Int(name.dropFirst(4)) ?? -1, at: destination(name))
            case ("file-aes", .downloaded):
                let written = try Data(contentsOf: destination("file-aes.ts"))
                #expect(Array(written) == streams.fixtures.flatMap { $0 }, "the AES-128 download is the clear reference")
            case ("package", .packaged):
                #expect(PackageStore(folder: destination(name)).verify().isVerified)
            default: Issue.record("\(name) ended as \(outcome)")
            }
        }
        for name in ["rec-3", "file-missing.ts", "package-cancelled", "package-missing"] {
            #expect(!FileManager.default.fileExists(atPath: destination(name).path), "\(name): nothing at the destination")
        }
    }
}
