import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraLive
import TesseraPlaylist
import TesseraSupport

/// The reloader over a scripted transport and an immediate clock: every request it makes, every
/// wait it asks for, every snapshot it sends.
@Suite("Live reloader: blocking reloads, polling, outages, recoveries, ENDLIST")
struct LiveReloaderTests {
    static let base = "https://live.example/v.m3u8"

    static func playlist(_ range: ClosedRange<Int>, control: String? = "CAN-BLOCK-RELOAD=YES", endList: Bool = false) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n"
        if let control { text += "#EXT-X-SERVER-CONTROL:\(control)\n" }
        text += "#EXT-X-MEDIA-SEQUENCE:\(range.lowerBound)\n" + range.map { "#EXTINF:4.0,\ns\($0).ts\n" }.joined()
        return Array((text + (endList ? "#EXT-X-ENDLIST\n" : "")).utf8)
    }

    final class Run: Sendable {
        let transport = MockTransport()
        let clock = ImmediateClock()
        private let recorded = Lock<[LiveReloader.Event]>([])
        var events: [LiveReloader.Event] { recorded.withLock { $0 } }

        func stub(_ query: String = "", _ stub: MockTransport.Stub) {
            transport.stub(URL(string: LiveReloaderTests.base + query)!, stub)
        }

        /// Runs the reloader to its end; every snapshot it sent, and how it ended. Polls at
        /// §6.3.4's shortest wait unless `align` (`PublicationPhase` is tested on its own; on the
        /// immediate clock, where no time passes but the sleeps, it has nothing to learn from).
        func follow(outageLimit: Duration? = nil, align: Bool = false) async -> ([LiveSnapshot], HLSError?) {
            var configuration = HLSClient.defaultConfiguration
            configuration.retry = .never
            var options = LiveReloader.Options()
            options.outageLimit = outageLimit
            options.alignPolls = align
            let reloader = LiveReloader(url: URL(string: LiveReloaderTests.base)!, client: HLSClient(transport: transport, configuration: configuration, clock: clock),
                                        options: options) { [recorded] event in recorded.withLock { $0.append(event) } }
            let channel = SnapshotChannel()
            let collector = Task { () -> [LiveSnapshot] in
                var snapshots: [LiveSnapshot] = []
                for await snapshot in channel { snapshots.append(snapshot) }
                return snapshots
            }
            var failure: HLSError?
            do { try await reloader.run(into: channel) } catch { failure = error }
            return (await collector.value, failure)
        }

        var urls: [String] { transport.requests.map(\.url.absoluteString) }
    }

    @Test("a blocking server: one request per new segment, each for the next one, until ENDLIST")
    func blocking() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...11)))
        run.stub("?_HLS_msn=12", .ok(Self.playlist(10...12)))
        run.stub("?_HLS_msn=13", .ok(Self.playlist(11...13, endList: true)))
        let (snapshots, failure) = await run.follow()
        #expect(failure == nil)
        #expect(run.urls == [Self.base, Self.base + "?_HLS_msn=12", Self.base + "?_HLS_msn=13"])
        #expect(run.clock.sleeps.isEmpty, "a blocking reload is sent at once")
        let last = try #require(snapshots.last)
        #expect(last.playlist.hasEndList && last.playlist.segments.last?.mediaSequence == 13)
        #expect(snapshots.reduce(0) { $0 + $1.coalesced } == 3)
        #expect(snapshots.first?.newSegments?.lowerBound == 10, "coalesced or not, the first snapshot starts at the first segment")
        if snapshots.first?.coalesced == 1 { #expect(snapshots.first?.mode == .full) }
    }

    @Test("without server control: §6.3.4 polling waits between plain reloads")
    func polling() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...11, control: nil)))
        run.stub("", .ok(Self.playlist(10...12, control: nil)))
        run.stub("", .ok(Self.playlist(10...12, control: nil)))
        run.stub("", .ok(Self.playlist(10...12, control: nil, endList: true)))
        let (snapshots, _) = await run.follow()
        #expect(run.urls == [Self.base, Self.base, Self.base, Self.base])
        #expect(run.clock.sleeps == [.seconds(4), .seconds(4), .seconds(2)], "the last segment's duration after a change, half the target after none")
        #expect(snapshots.last?.mode == .poll)
        // Aligned to when segments are listed, a poll may wait longer, never less.
        let aligned = Run()
        for stub in [Self.playlist(10...11, control: nil), Self.playlist(10...12, control: nil), Self.playlist(10...12, control: nil),
                     Self.playlist(10...12, control: nil, endList: true)] { aligned.stub("", .ok(stub)) }
        _ = await aligned.follow(align: true)
        #expect(aligned.clock.sleeps.count == 3 && zip(aligned.clock.sleeps, [Duration.seconds(4), .seconds(4), .seconds(2)]).allSatisfy { $0 >= $1 },
                "\(aligned.clock.sleeps)")
    }

    @Test("a refused blocking request (503) is followed by one plain reload, then blocking again")
    func refusedBlocking() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...11)))
        run.stub("?_HLS_msn=12", .response(status: 503, chunks: []))
        run.stub("", .ok(Self.playlist(10...12)))
        run.stub("?_HLS_msn=13", .ok(Self.playlist(10...13, endList: true)))
        let (_, failure) = await run.follow()
        #expect(failure == nil)
        #expect(run.urls == [Self.base, Self.base + "?_HLS_msn=12", Self.base, Self.base + "?_HLS_msn=13"])
        #expect(run.events == [.blockingRefused(status: 503)])
    }

    @Test("a blocking request unanswered past 3 × target + part target times out: one plain reload, then blocking again, no outage")
    func blockingTimeout() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...11)))
        run.stub("?_HLS_msn=12", .failure(HTTPError(.timeout, code: .firstByteTimeout, "No response within 13 s.")))
        run.stub("", .ok(Self.playlist(10...12)))
        run.stub("?_HLS_msn=13", .ok(Self.playlist(10...13, endList: true)))
        let (snapshots, failure) = await run.follow()
        #expect(failure == nil)
        #expect(run.urls == [Self.base, Self.base + "?_HLS_msn=12", Self.base, Self.base + "?_HLS_msn=13"])
        #expect(run.transport.requests[1].limits.timeToFirstByte == .seconds(13), "3 × 4 s + 1 s")
        #expect(run.events == [.blockingTimedOut(after: .seconds(13))])
        #expect(snapshots.last?.playlist.segments.last?.mediaSequence == 13)
    }

    @Test("an answer behind the held edge (a stale cache) is set aside and the next part asked for again; one that persists is taken as a restart")
    func edgeRegression() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...12)))
        run.stub("?_HLS_msn=13", .ok(Self.playlist(9...11)))
        run.stub("", .ok(Self.playlist(10...13)))
        run.stub("?_HLS_msn=14", .ok(Self.playlist(10...14, endList: true)))
        let (snapshots, _) = await run.follow()
        #expect(run.events == [.edgeRegressed(held: "12.0", got: "11.0")])
        #expect(snapshots.compactMap { $0.playlist.segments.last?.mediaSequence } == [12, 13, 14].suffix(snapshots.count))
        #expect(snapshots.reduce(0) { $0 + $1.coalesced } == 3, "the set-aside answer is no snapshot")

        // The same older copy, answer after answer: after two set aside, it is the stream.
        let persisting = Run()
        persisting.stub("", .ok(Self.playlist(10...12)))
        persisting.stub("?_HLS_msn=13", .ok(Self.playlist(9...11)))
        persisting.stub("", .ok(Self.playlist(9...11)))
        persisting.stub("", .ok(Self.playlist(9...11)))
        persisting.stub("?_HLS_msn=12", .ok(Self.playlist(9...12, endList: true)))
        let (persisted, _) = await persisting.follow()
        #expect(persisting.events == [.edgeRegressed(held: "12.0", got: "11.0"), .edgeRegressed(held: "12.0", got: "11.0"),
                                      .sourceRestarted(reason: "its edge stayed behind 12.0 for 3 responses in a row")])
        #expect(persisting.urls.last == Self.base + "?_HLS_msn=12")
        #expect(persisted.last?.playlist.segments.last?.mediaSequence == 12, "after \(LiveReloader.regressionsTolerated) set aside, it is followed")
    }

    @Test("an answer behind the held edge that shows a restart (before the whole window, newer dates, a segment listed otherwise) is taken at once")
    func evidentRestart() async throws {
        let restart = Run()
        restart.stub("", .ok(Self.playlist(10...12)))
        restart.stub("?_HLS_msn=13", .ok(Self.playlist(0...1)))
        restart.stub("?_HLS_msn=2", .ok(Self.playlist(0...2, endList: true)))
        let (restarted, _) = await restart.follow()
        #expect(restart.events == [.sourceRestarted(reason: "its media sequence went back from 12 to 1, behind the whole window listed before")])
        #expect(restart.urls == [Self.base, Self.base + "?_HLS_msn=13", Self.base + "?_HLS_msn=2"])
        #expect(restarted.map { $0.playlist.segments.last?.mediaSequence } == [12, 1, 2].suffix(restarted.count))
        #expect(restarted.last?.playlist.segments.map(\.mediaSequence) == [0, 1, 2], "the restarted stream is followed")
    }

    @Test("a delta update that cannot be merged (it skips segments the held copy never had) costs one whole reload, then deltas again")
    func unmergeableDelta() async throws {
        let control = "CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24.0"
        let run = Run()
        run.stub("", .ok(Self.playlist(10...14, control: control)))
        let delta = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:\(control)\n#EXT-X-MEDIA-SEQUENCE:4\n"
            + "#EXT-X-SKIP:SKIPPED-SEGMENTS=9\n#EXTINF:4.0,\ns13.ts\n#EXTINF:4.0,\ns14.ts\n#EXTINF:4.0,\ns15.ts\n"
        run.stub("?_HLS_msn=15&_HLS_skip=YES", .ok(Array(delta.utf8)))
        run.stub("?_HLS_msn=15", .ok(Self.playlist(10...15, control: control)))
        run.stub("?_HLS_msn=16&_HLS_skip=YES", .ok(Self.playlist(11...16, control: control, endList: true)))
        let (snapshots, failure) = await run.follow()
        #expect(failure == nil)
        #expect(run.urls == [Self.base, Self.base + "?_HLS_msn=15&_HLS_skip=YES", Self.base + "?_HLS_msn=15", Self.base + "?_HLS_msn=16&_HLS_skip=YES"])
        #expect(run.events.count == 1 && { if case .deltaRefused = run.events[0] { true } else { false } }(), "\(run.events)")
        #expect(snapshots.last?.playlist.segments.map(\.mediaSequence) == Array(11...16))
    }

    @Test("an outage inside the window is tried through with capped backoff, each retry reported, and the snapshot after it names what was missed")
    func outage() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...14, control: nil)))
        for _ in 0..<4 { run.stub("", .response(status: 404, chunks: [])) }
        run.stub("", .ok(Self.playlist(17...19, control: nil, endList: true)))
        let (snapshots, failure) = await run.follow()
        #expect(failure == nil)
        #expect(run.events.map { if case .retry(let attempt, let wait, _) = $0 { "\(attempt):\(wait)" } else { "?" } }
                == ["1:0.25 seconds", "2:0.5 seconds", "3:1.0 seconds", "4:2.0 seconds"])
        #expect(snapshots.flatMap(\.missed) == [15...16])
    }

    @Test("an outage past the limit ends with the typed error after the snapshots before it")
    func giveUp() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...11, control: nil)))
        run.stub("", .response(status: 404, chunks: []))
        let (snapshots, failure) = await run.follow(outageLimit: .seconds(10))
        #expect(snapshots.count == 1)
        #expect(failure?.code == .httpStatus && failure?.message.contains("could not be reloaded for") == true, "\(String(describing: failure))")
        let retries = run.events.filter { if case .retry = $0 { true } else { false } }
        #expect(retries.count >= 3 && retries.count <= 8)
    }

    @Test("a playlist that answers but stops moving is an outage too: how long it waited reported as the wait doubles, then source-stopped at the limit past due")
    func stalled() async throws {
        let run = Run()
        run.stub("", .ok(Self.playlist(10...11, control: nil)))
        run.stub("", .ok(Self.playlist(10...12, control: nil)))
        run.stub("", .ok(Self.playlist(10...12, control: nil)))   // repeats: the source is dead, its last playlist still served
        let (snapshots, failure) = await run.follow(outageLimit: .seconds(30))
        #expect(snapshots.last?.playlist.segments.last?.mediaSequence == 12)
        #expect(failure?.code == .sourceStopped, "\(String(describing: failure))")
        #expect(failure?.message.contains("listed no new segment after 12 for") == true && failure?.message.contains("the source stopped producing media") == true)
        let waits = run.events.compactMap { if case .noNewSegment(let waited, _) = $0 { waited } else { nil } }
        // Due 4 s after segment 12 appeared; reported once 4 s past due, then each time that doubles.
        #expect(waits == [.seconds(8), .seconds(12), .seconds(20)], "\(waits)")
        #expect(run.clock.now.offset >= .seconds(34), "the limit counts from when the next segment was due")
    }

    @Test("a multivariant URL: the selection's variant is followed")
    func multivariant() async throws {
        let run = Run()
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nhigh.m3u8\n"
        run.transport.stub(URL(string: "https://live.example/master.m3u8")!, .ok(Array(master.utf8)))
        run.transport.stub(URL(string: "https://live.example/high.m3u8")!, .ok(Self.playlist(10...11, control: nil, endList: true)))
        let reloader = LiveReloader(url: URL(string: "https://live.example/master.m3u8")!, client: HLSClient(transport: run.transport, clock: run.clock))
        let channel = SnapshotChannel()
        try await reloader.run(into: channel)
        var iterator = channel.makeAsyncIterator()
        #expect(await iterator.next()?.playlist.hasEndList == true)
        #expect(run.urls == ["https://live.example/master.m3u8", "https://live.example/high.m3u8"])
    }

    @Test("a first playlist a cache held 5 s asks one segment further ahead (CDN tune-in); without Age, for the next part")
    func tuneIn() async throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0\n"
            + "#EXT-X-PART-INF:PART-TARGET=1.0\n#EXT-X-MEDIA-SEQUENCE:100\n#EXTINF:4.0,\ns100.ts\n#EXT-X-PART:DURATION=1.0,URI=\"p0.mp4\"\n"
        let run = Run()
        run.stub("", .ok(Array(text.utf8), headers: ["Age": "5"]))
        run.stub("?_HLS_msn=102&_HLS_part=1", .ok(Self.playlist(100...102, endList: true)))
        _ = await run.follow()
        #expect(run.urls == [Self.base, Self.base + "?_HLS_msn=102&_HLS_part=1"], "goal min(5 - 1, 6) = 4 s: one segment on")
        let fresh = Run()
        fresh.stub("", .ok(Array(text.utf8)))
        fresh.stub("?_HLS_msn=101&_HLS_part=1", .ok(Self.playlist(100...101, endList: true)))
        _ = await fresh.follow()
        #expect(fresh.urls == [Self.base, Self.base + "?_HLS_msn=101&_HLS_part=1"])
    }
}
