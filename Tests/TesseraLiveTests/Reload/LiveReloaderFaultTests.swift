import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraLive
import TesseraPlayback
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// The reloader against the LL-HLS origin's faults over real HTTP on loopback, on a manual clock
/// the test moves (the origin publishes one part per second of it): a 20 s outage inside a 30 s
/// window, a cached first response, Date Ranges through `_HLS_skip=v2`, a pathway that dies.
@Suite("Live reloader against the origin's faults: outages, cached tune-in, skipped Date Ranges, a dying pathway")
struct LiveReloaderFaultTests {
    /// Events the reloader reported.
    final class Events: Sendable {
        private let recorded = Lock<[LiveReloader.Event]>([])
        var all: [LiveReloader.Event] { recorded.withLock { $0 } }
        func record(_ event: LiveReloader.Event) { recorded.withLock { $0.append(event) } }
        var retries: [(attempt: Int, wait: Duration)] {
            all.compactMap { if case .retry(let attempt, let wait, _) = $0 { (attempt, wait) } else { nil } }
        }
    }

    static func client(_ transport: CurlTransport, clock: some Clock<Duration>) -> HLSClient {
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        return HLSClient(transport: transport, configuration: configuration, clock: clock)
    }

    /// Follows `origin` on an immediate clock, publishing one part after each snapshot, `parts`
    /// times, then ENDLIST; every snapshot.
    static func follow(_ origin: LiveOrigin, parts: Int) async throws -> [LiveSnapshot] {
        let host = try LiveOriginHost(origin)
        let reloader = LiveReloader(url: host.playlistURL, client: client(host.transport, clock: ImmediateClock()))
        return try await LiveFollow.run(reloader) { snapshots in
            if snapshots.count <= parts { origin.advance(parts: 1) } else { origin.end() }
        }
    }

    @Test("a 20 s outage inside a 30 s window: every retry reported on the clock, nothing lost, the follow goes on from where it was")
    func outageInsideWindow() async throws {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.partsPerSegment = 2    // 2 s segments, 15 of them: a 30 s window
        configuration.window = 15
        configuration.canSkipUntil = nil
        let origin = LiveOrigin(configuration, published: 30)
        let host = try LiveOriginHost(origin)
        let clock = ManualClock()
        let events = Events()
        let reloader = LiveReloader(url: host.playlistURL, client: Self.client(host.transport, clock: clock)) { events.record($0) }
        let channel = SnapshotChannel()
        let run = Task { try await reloader.run(into: channel) }
        var iterator = channel.makeAsyncIterator()
        let first = try #require(await iterator.next())
        origin.setOutage(true)
        // Each retry waits on the clock; the origin goes on publishing a part per second of it,
        // and comes back while the reloader sleeps past the 20 s mark.
        var elapsed = Duration.zero
        while elapsed < .seconds(20) {
            await clock.waitForSleepers()
            let wait = try #require(events.retries.last?.wait)
            let before = Int(elapsed / .seconds(1))
            elapsed += wait
            origin.advance(parts: Int(elapsed / .seconds(1)) - before)
            if elapsed >= .seconds(20) { origin.setOutage(false) }
            clock.advance(by: wait)
        }
        let after = try #require(await iterator.next())
        origin.end()
        var last = after
        while let next = await iterator.next() { last = next }
        try await run.value

        let retries = events.retries
        #expect(retries.map(\.attempt) == Array(1...retries.count), "every retry reported, in order")
        #expect(retries.prefix(4).map(\.wait) == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
        #expect(retries.dropFirst(3).allSatisfy { $0.wait == .seconds(2) }, "capped at one target duration")
        #expect(after.missed.isEmpty, "a 20 s outage inside a 30 s window loses nothing")
        let heldLast = try #require(first.playlist.segments.last?.mediaSequence)
        #expect(after.newSegments?.lowerBound == heldLast + 1, "the segments published during the outage are the next ones")
        #expect(after.playlist.segments.first!.mediaSequence <= heldLast + 1)
        #expect(last.playlist.hasEndList)
    }

    @Test("a first response a cache held (Age) makes the first blocking request ask for the estimated edge; tuneIn off asks for the next part")
    func cachedTuneIn() async throws {
        for tuneIn in [true, false] {
            let origin = LiveOrigin(canSkipUntil: nil, published: 16)
            origin.setAge(6)
            let host = try LiveOriginHost(origin)
            var options = LiveReloader.Options()
            options.tuneIn = tuneIn
            let reloader = LiveReloader(url: host.playlistURL, client: Self.client(host.transport, clock: ImmediateClock()),
                                        options: options)
            let channel = SnapshotChannel()
            let run = Task { try await reloader.run(into: channel) }
            var iterator = channel.makeAsyncIterator()
            _ = await iterator.next()
            origin.setAge(nil)
            // The edge as the cache saw it is segment 3 complete: the next part is 4.0; 6 s behind
            // less a part target is 5 s: one segment and one part on (5.1) with tune-in.
            while origin.log.count < 2 { await Task.yield() }
            origin.advance(parts: 8)
            origin.end()
            while await iterator.next() != nil {}
            try await run.value
            #expect(origin.log[1] == (tuneIn ? "/live.m3u8?_HLS_msn=5&_HLS_part=1" : "/live.m3u8?_HLS_msn=4&_HLS_part=0"), "\(origin.log)")
        }
    }

    @Test("_HLS_skip=v2 with CAN-SKIP-DATERANGES: skipped Date Ranges come back from history, removed ones are dropped")
    func skippedDateRanges() async throws {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.canSkipUntil = 8
        configuration.canSkipDateRanges = true
        configuration.dateRangeEvery = 1
        let origin = LiveOrigin(configuration, published: 24)
        let snapshots = try await Self.follow(origin, parts: 9)
        #expect(origin.log.dropFirst().allSatisfy { $0.contains("_HLS_skip=v2") }, "\(origin.log)")
        // Merged: one range per listed segment, the ones that left the window gone.
        for snapshot in snapshots.dropLast() {
            let listed = snapshot.playlist.segments.map { "d\($0.mediaSequence)" }
            #expect(snapshot.playlist.dateRanges.map(\.id).sorted() == listed.sorted(), "\(snapshot.playlist.dateRanges.map(\.id)) vs \(listed)")
        }
    }

    @Test("a day-long EVENT playlist (40,000 segments) is followed with delta updates: each reload small, the merged copy whole")
    func dayLongEvent() async throws {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.partsPerSegment = 2
        configuration.window = nil
        configuration.canSkipUntil = 12
        let origin = LiveOrigin(configuration, published: 80_000)
        let snapshots = try await Self.follow(origin, parts: 7)
        #expect(origin.log.dropFirst().allSatisfy { $0.contains("_HLS_skip=YES") }, "every reload after tune-in a delta update")
        let last = try #require(snapshots.last?.playlist)
        #expect(last.hasEndList && last.segments.count == 40_004)
        #expect(last.segments.first?.mediaSequence == 0 && last.segments.last?.mediaSequence == 40_003)
        #expect(snapshots.dropFirst().allSatisfy { $0.mode == .delta || $0.playlist.hasEndList })
    }

    @Test("a cache serving an older copy mid-stream: the answer is set aside, the next part asked for again, no snapshot goes back")
    func staleCopy() async throws {
        let origin = LiveOrigin(canSkipUntil: nil, published: 16)
        let host = try LiveOriginHost(origin)
        let events = Events()
        let reloader = LiveReloader(url: host.playlistURL, client: Self.client(host.transport, clock: ImmediateClock())) {
            events.record($0)
        }
        let snapshots = try await LiveFollow.run(reloader) { snapshots in
            if snapshots.count == 2 { origin.regress(segments: 2, answers: 1) }
            if snapshots.count < 6 { origin.advance(parts: 1) } else { origin.end() }
        }
        #expect(events.all.contains { if case .edgeRegressed = $0 { true } else { false } }, "\(events.all)")
        let edges = snapshots.map { ($0.playlist.segments.last?.mediaSequence ?? 0) * 10 + UInt64($0.playlist.pendingParts.count) }
        #expect(edges == edges.sorted(), "\(edges)")
    }

    @Test("a pathway that dies mid-stream: the follow moves to the equivalent variant on the other pathway at once, tuned in from its rendition report")
    func steeringFailover() async throws {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.canSkipUntil = nil
        let origins = try SteeredLiveOrigins(configuration, reportB: true)
        let (hostA, a, b) = (origins.a, origins.a.origin, origins.b.origin)
        let events = Events()
        // A manual clock that never moves: the steering manifest's TTL and the penalty last for
        // ever (a failover needs no wait).
        let reloader = LiveReloader(url: origins.masterURL, client: Self.client(hostA.transport, clock: ManualClock())) {
            events.record($0)
        }
        let snapshots = try await LiveFollow.run(reloader) { snapshots in
            switch snapshots.count {
            case 3: a.setOutage(true)    // pathway A dies for good
            case 6: b.end()
            default: break
            }
            a.advance(parts: 1)
            b.advance(parts: 1)
        }
        let pathways = snapshots.map { $0.pathway ?? "-" }
        #expect(pathways.first == "A" && pathways.last == "B", "\(pathways)")
        #expect(pathways == pathways.sorted(), "A until it died, then B: \(pathways)")
        #expect(events.all.contains { if case .pathwayChanged("A", "B", _) = $0 { true } else { false } }, "\(events.all)")
        #expect(events.retries.isEmpty, "another pathway is no outage: \(events.all)")
        #expect(b.log.first?.hasPrefix("/live.m3u8?_HLS_msn=") == true, "the rendition report's next part, no plain load: \(b.log)")
        let edges = snapshots.compactMap { $0.playlist.segments.last?.mediaSequence }
        #expect(edges == edges.sorted(), "the edge never went back across the switch: \(edges)")
        #expect(snapshots.allSatisfy { $0.missed.isEmpty })
    }
}
