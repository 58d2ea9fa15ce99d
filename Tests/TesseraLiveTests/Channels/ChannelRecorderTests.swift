import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraLive
import TesseraSupport
import TesseraTestSupport

@Suite("ChannelRecorder: many live channels in one process")
struct ChannelRecorderTests {
    /// Channel events kept, and a signal at each end.
    final class Ends: Sendable {
        private let state = Lock<(ended: [String: ChannelStatus.State], events: [String: [String]])>(([:], [:]))
        let stream: AsyncStream<Void>
        private let signal: AsyncStream<Void>.Continuation

        init() { (stream, signal) = AsyncStream<Void>.makeStream() }

        func note(_ event: ChannelEvent) {
            let text: String
            switch event.kind {
            case .started(let destination, _): text = "started \(destination.lastPathComponent)"
            case .recording(.job(.resumed)): text = "resumed"
            case .recording(.job(.sourceRestarted)): text = "restarted"
            case .recording: return
            case .committed(let report): text = "committed \(report.destination.lastPathComponent)"
            case .failed(let error, let retry): text = "failed \(error.code)" + (retry == nil ? "" : " retry")
            case .ended(let state): text = "ended \(state.rawValue)"
            }
            state.withLock { state in
                state.events[event.channel, default: []].append(text)
                if case .ended(let ending) = event.kind { state.ended[event.channel] = ending }
            }
            signal.yield()
        }

        var ended: [String: ChannelStatus.State] { state.withLock { $0.ended } }
        func events(_ channel: String) -> [String] { state.withLock { $0.events[channel] ?? [] } }

        /// Waits until `names` have all ended.
        func wait(for names: Set<String>) async {
            await wait { names.isSubset(of: Set($0.ended.keys)) }
        }

        /// Waits until `condition` holds.
        func wait(until condition: (Ends) -> Bool) async {
            if condition(self) { return }
            for await _ in stream where condition(self) { return }
        }
    }

    static var fastRetry: ChannelRecorder.Options {
        var options = ChannelRecorder.Options()
        options.onFailure = .retry(initial: .milliseconds(10), maximum: .milliseconds(80))
        options.startSpread = .milliseconds(50)
        return options
    }

    @Test("twenty channels, four faulty (dead, trickling, restarting, 5 MB playlists over the 4 MiB a channel reads): the sixteen healthy ones record every segment of their own; each fault stays its channel's",
          .timeLimit(.minutes(2)))
    func faults() async throws {
        let transport = try CurlTransport.loopback()
        defer { transport.shutdown() }
        let client = IsolatedStreams.client(transport)
        let origins = try ChannelOrigins(healthy: 16)
        defer { origins.shutdown() }
        let folder = try TemporaryDirectory()
        var channels = try (0..<16).map { index in
            try RecordingChannel(name: String(format: "ch%02d", index), url: origins.streams.hosts[index].playlistURL, client: client,
                                 options: ChannelOrigins.healthyOptions)
        }
        // The faulty origins on the real clock: their reloads wait as a real recorder's do (on the
        // immediate clock a playlist that never moves would be reloaded without a pause).
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        let realClock = HLSClient(transport: transport, configuration: configuration)
        var faulty = ChannelOrigins.healthyOptions
        faulty.duration = nil
        channels.append(try RecordingChannel(name: "dead", url: URL(string: "http://127.0.0.1:\(origins.refused.port)/live.m3u8")!, client: realClock, options: faulty))
        channels.append(try RecordingChannel(name: "trickle", url: origins.trickling.url("/live.m3u8"), client: realClock, options: faulty))
        channels.append(try RecordingChannel(name: "huge", url: origins.huge.url("/live.m3u8"), client: realClock, options: faulty))
        var restarting = ChannelOrigins.healthyOptions
        restarting.start = .now
        restarting.duration = .seconds(12)
        channels.append(try RecordingChannel(name: "restart", url: origins.restartingURL, client: client, options: restarting))

        let recorder = ChannelRecorder(directory: folder.url, options: Self.fastRetry)
        let ends = Ends()
        let run = Task {
            await recorder.run(channels) { event in
                ends.note(event)
                guard case .recording(.progress(let progress)) = event.kind else { return }
                if event.channel.hasPrefix("ch"), let index = Int(event.channel.dropFirst(2)) { origins.publishers[index].publish(after: progress) }
                if event.channel == "restart" {
                    if progress.segments >= 2 { origins.restarting.restart() }
                    origins.restarting.advance()
                }
            }
        }
        let healthy = Set(channels.map(\.name).filter { $0.hasPrefix("ch") })
        await ends.wait(for: healthy)
        // The dead one has failed (and is tried again), the huge one too (its 5 MB playlist is over
        // the 4 MiB a channel reads), the restarting one recorded through its restart; the
        // trickling one goes on: stop them all.
        await ends.wait { ends in
            ends.events("dead").contains { $0.hasPrefix("failed") } && ends.events("huge").contains { $0.hasPrefix("failed") }
                && ends.events("restart").contains("restarted")
        }
        recorder.stop()
        await run.value

        for index in 0..<16 {
            let name = String(format: "ch%02d", index)
            #expect(ends.ended[name] == .finished, "\(name): \(ends.events(name))")
            let manifest = try PackageManifest.decode(Array(Data(contentsOf: folder.url.appendingPathComponent("\(name)/manifest.json"))))
            #expect(manifest.gaps.isEmpty, "\(name): no gap")
            #expect(PackageStore(folder: folder.url.appendingPathComponent(name)).verify().isVerified, "\(name)")
            for msn in 0..<4 {
                let stored = try Data(contentsOf: folder.url.appendingPathComponent("\(name)/video/\(msn).ts"))
                #expect(Array(stored) == origins.streams.fixtures[(msn + index) % 4], "\(name) segment \(msn): its own bytes, with its own keys")
            }
        }
        let status = Dictionary(uniqueKeysWithValues: recorder.status.map { ($0.name, $0) })
        #expect(status.count == 20)
        #expect(healthy.allSatisfy { status[$0]?.segments == 4 && status[$0]?.errors == 0 && status[$0]?.committed == 1 })
        let dead = try #require(status["dead"])
        #expect(dead.errors >= 1 && dead.committed == 0 && dead.lastErrorCode == "fetch-failed", "\(dead)")
        #expect(dead.state == .stopped && ends.events("dead").contains("failed fetch-failed retry"))
        #expect(dead.source.hasPrefix("http://127.0.0.1:"), "the source as given, redacted")
        let huge = try #require(status["huge"])
        #expect(huge.committed == 0 && huge.state == .stopped && huge.lastErrorCode == "budget-exceeded", "over the playlist bound: nothing to commit; \(huge)")
        #expect(ends.events("huge").contains("failed budget-exceeded retry"), "\(ends.events("huge"))")
        #expect(status["trickle"]?.state == .stopped)
        let restart = try #require(status["restart"])
        #expect([.finished, .stopped].contains(restart.state) && restart.restarts >= 1, "\(ends.events("restart"))")
        #expect(PackageStore(folder: folder.url.appendingPathComponent("restart")).verify().isVerified)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("dead").path), "nothing committed for a dead origin")
    }

    @Test("a new list: a new channel starts, a removed one commits and stops, a changed one commits and records again into NAME.2",
          .timeLimit(.minutes(1)))
    func update() async throws {
        let harness = try ChannelHarness(count: 3)
        let folder = harness.folder
        var open = ChannelOrigins.healthyOptions
        open.duration = nil
        func channel(_ name: String, _ index: Int, revision: String? = nil) throws -> RecordingChannel {
            try harness.channel(name, index, options: open, revision: revision)
        }
        let recorder = ChannelRecorder(directory: folder.url, options: Self.fastRetry)
        let ends = Ends()
        let progressed = Lock<[String: Int]>([:])
        let (moved, signal) = AsyncStream<Void>.makeStream()
        let index = ["kept": 0, "removed": 1, "added": 2]
        let initial = [try channel("kept", 0), try channel("removed", 1)]
        let run = Task {
            await recorder.run(initial) { event in
                ends.note(event)
                if case .started = event.kind { progressed.withLock { $0[event.channel] = 0 } }
                guard harness.publish(after: event, on: index[event.channel]) != nil else {
                    signal.yield()
                    return
                }
                progressed.withLock { $0[event.channel, default: 0] += 1 }
                signal.yield()
            }
        }
        func waitFor(_ name: String, _ count: Int) async {
            for await _ in moved where progressed.withLock({ $0[name] ?? 0 }) >= count { return }
        }
        await waitFor("kept", 2)
        await waitFor("removed", 2)
        recorder.update([try channel("kept", 0, revision: "changed"), try channel("added", 2)])
        await ends.wait(for: ["removed"])
        await waitFor("added", 2)
        for await _ in moved where ends.events("kept").contains("started kept.2") && progressed.withLock({ $0["kept"] ?? 0 }) >= 2 { break }
        recorder.stop()
        await run.value
        #expect(ends.events("removed").suffix(2) == ["committed removed", "ended stopped"], "\(ends.events("removed"))")
        #expect(ends.events("kept").contains("committed kept") && ends.events("kept").contains("committed kept.2"), "\(ends.events("kept"))")
        #expect(ends.events("added").first == "started added")
        for name in ["kept", "kept.2", "removed", "added"] {
            #expect(PackageStore(folder: folder.url.appendingPathComponent(name)).verify().isVerified, "\(name)")
        }
        #expect(Set(recorder.status.map(\.name)) == ["kept", "added"], "a removed channel leaves the status once it has ended")
    }

    @Test("two recorders on one channel's destination: the second's channel fails with destination-busy and is not tried again",
          .timeLimit(.minutes(1)))
    func destinationBusy() async throws {
        let harness = try ChannelHarness(count: 1)
        let folder = harness.folder
        var open = ChannelOrigins.healthyOptions
        open.duration = nil
        let channel = try harness.channel("news", 0, options: open)
        let first = ChannelRecorder(directory: folder.url, options: Self.fastRetry)
        let (started, signal) = AsyncStream<Void>.makeStream()
        let run = Task {
            await first.run([channel]) { event in
                if harness.publish(after: event, on: 0) != nil { signal.yield() }
            }
        }
        for await _ in started { break }
        let second = ChannelRecorder(directory: folder.url, options: Self.fastRetry)
        let ends = Ends()
        await second.run([channel]) { ends.note($0) }
        #expect(ends.events("news") == ["started news", "failed destination-busy", "ended failed"])
        #expect(second.status.first?.state == .failed && second.status.first?.lastErrorCode == "destination-busy")
        first.stop()
        await run.value
        #expect(PackageStore(folder: folder.url.appendingPathComponent("news")).verify().isVerified)
    }

    @Test("--on-channel-failure stop: the failed channel is left failed, the healthy one records to its end", .timeLimit(.minutes(1)))
    func stopPolicy() async throws {
        let harness = try ChannelHarness(count: 1)
        let refused = try RefusingPort()
        var options = Self.fastRetry
        options.onFailure = .stop
        let recorder = ChannelRecorder(directory: harness.folder.url, options: options)
        let ends = Ends()
        await recorder.run([
            try harness.channel("good", 0),
            try RecordingChannel(name: "bad", url: URL(string: "http://127.0.0.1:\(refused.port)/live.m3u8")!, client: harness.client),
        ]) { event in
            ends.note(event)
            harness.publish(after: event, on: 0)
        }
        #expect(ends.events("bad") == ["started bad", "failed fetch-failed", "ended failed"])
        #expect(ends.ended["good"] == .finished)
        #expect(recorder.status.map(\.state) == [.finished, .failed])
    }

    @Test("kill -9 with twenty channels recording (their on-disk state at a segment boundary): the same call resumes each from its own checkpoint",
          .timeLimit(.minutes(2)))
    func resume() async throws {
        let names = (0..<20).map { "ch\($0)" }
        let harness = try ChannelHarness(count: names.count)
        let folder = harness.folder
        let crashed = try TemporaryDirectory()
        let channels = try names.enumerated().map { index, name in try harness.channel(name, index) }
        // First run: at each channel's second segment its on-disk state is copied as a kill -9
        // would leave it (staging folder, checkpoint, timeline), then the run is stopped.
        let copied = Lock<Set<String>>([])
        let first = ChannelRecorder(directory: folder.url, options: Self.fastRetry)
        await first.run(channels) { event in
            guard case .recording(.progress(let progress)) = event.kind, let index = names.firstIndex(of: event.channel) else { return }
            if progress.segments == 2, copied.withLock({ $0.insert(event.channel).inserted }) {
                for suffix in ["partial", "checkpoint", "timeline"] {
                    try? FileManager.default.copyItem(at: folder.url.appendingPathComponent(".\(event.channel).tessera-\(suffix)"),   // checked below
                                                      to: crashed.url.appendingPathComponent(".\(event.channel).tessera-\(suffix)"))
                }
                if copied.withLock({ $0.count }) == names.count { first.stop() }
            }
            harness.publishers[index].publish(after: progress)
        }
        for name in names {
            #expect(FileManager.default.fileExists(atPath: crashed.url.appendingPathComponent(".\(name).tessera-checkpoint").path), "\(name)")
        }
        let ends = Ends()
        let second = ChannelRecorder(directory: crashed.url, options: Self.fastRetry)
        await second.run(channels) { event in
            ends.note(event)
            harness.publish(after: event, on: names.firstIndex(of: event.channel))
        }
        for (index, name) in names.enumerated() {
            #expect(ends.events(name).prefix(2) == ["started \(name)", "resumed"], "\(ends.events(name))")
            #expect(ends.ended[name] == .finished)
            let destination = crashed.url.appendingPathComponent(name)
            #expect(PackageStore(folder: destination).verify().isVerified)
            for msn in 0..<2 {
                let stored = try Data(contentsOf: destination.appendingPathComponent("video/\(msn).ts"))
                #expect(Array(stored) == harness.streams.fixtures[(msn + index) % 4], "\(name) segment \(msn) kept from before the crash")
            }
        }
    }
}
