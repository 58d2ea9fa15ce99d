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

/// The reloader against the LL-HLS test origin over real HTTP on loopback: the test publishes a
/// part after each snapshot it receives, so every step is deterministic (no timer, no sleep).
@Suite("Live reloader against the LL-HLS origin: to the part, one request per part")
struct LiveReloaderOriginTests {
    final class Live: Sendable {
        let host: LiveOriginHost
        var origin: LiveOrigin { host.origin }
        var server: LoopbackServer { host.server }
        var transport: CurlTransport { host.transport }

        init(canSkipUntil: Int? = 12) throws {
            host = try LiveOriginHost(LiveOrigin(canSkipUntil: canSkipUntil))
        }

        /// Follows the origin on an immediate clock, calling `step` with the snapshots so far after
        /// each one (until ENDLIST); every snapshot received.
        func follow(onEvent: @escaping @Sendable (LiveReloader.Event) -> Void = { _ in },
                    step: ([LiveSnapshot]) -> Void) async throws -> [LiveSnapshot] {
            let reloader = LiveReloader(url: server.baseURL.appendingPathComponent("live.m3u8"),
                                        client: HLSClient(transport: transport, clock: ImmediateClock()), onEvent: onEvent)
            return try await LiveFollow.run(reloader, step: step)
        }

        /// Follows the origin, publishing one part after each snapshot, `parts` times, then the end.
        func follow(parts: Int) async throws -> [LiveSnapshot] {
            try await follow { snapshots in
                if snapshots.count <= parts { origin.advance(parts: 1) } else { origin.end() }
            }
        }
    }

    @Test("each new part is one blocking request answered as it is published")
    func toThePart() async throws {
        let live = try Live(canSkipUntil: nil)
        let snapshots = try await live.follow(parts: 9)
        let reloads = live.origin.log
        #expect(reloads.first == "/live.m3u8")
        #expect(reloads.dropFirst().allSatisfy { $0.contains("_HLS_msn=") && $0.contains("_HLS_part=") }, "\(reloads)")
        #expect(reloads.count == snapshots.count, "no wasted request: \(reloads.count) requests for \(snapshots.count) snapshots")
        // 8 parts out at tune-in (two segments), then one more per snapshot: segment 2's parts, then 3's.
        let edges = snapshots.map { "\($0.playlist.segments.last?.mediaSequence ?? 0).\($0.playlist.pendingParts.count)" }
        #expect(edges.prefix(6) == ["1.0", "1.1", "1.2", "1.3", "2.0", "2.1"], "\(edges)")
        #expect(snapshots.dropFirst().allSatisfy { $0.mode == .blocking || $0.playlist.hasEndList })
        #expect(snapshots.last?.playlist.hasEndList == true)
    }

    @Test("with CAN-SKIP-UNTIL, reloads are delta updates merged into the held copy")
    func deltas() async throws {
        let live = try Live(canSkipUntil: 8)
        live.origin.advance(parts: 16)    // six segments: deltas skip the older ones
        let snapshots = try await live.follow(parts: 6)
        #expect(live.origin.log.dropFirst().allSatisfy { $0.contains("_HLS_skip=YES") })
        #expect(snapshots.dropFirst().allSatisfy { $0.mode == .delta || $0.playlist.hasEndList })
        let last = try #require(snapshots.last?.playlist)
        #expect(last.skip == nil, "merged")
        #expect(last.segments.map(\.mediaSequence) == Array(last.segments.first!.mediaSequence...last.segments.last!.mediaSequence))
        #expect(last.segments.count >= 6, "the skipped segments came back from history")
    }

    @Test("a burst of 503s: each retry reported, the follow goes on where it was")
    func outageBurst() async throws {
        let live = try Live(canSkipUntil: nil)
        let retries = Lock(0)
        let origin = live.origin
        let snapshots = try await live.follow(onEvent: { event in
            guard case .retry = event else { return }
            // The origin comes back after the third retry, with the next part published meanwhile.
            if retries.withLock({ count -> Int in count += 1; return count }) == 3 {
                origin.setOutage(false)
                origin.advance(parts: 1)
            }
        }, step: { snapshots in
            if snapshots.count == 1 { origin.setOutage(true) } else { origin.end() }
        })
        #expect(retries.withLock { $0 } >= 3)
        #expect(snapshots.last?.playlist.hasEndList == true)
        #expect(snapshots.allSatisfy { $0.missed.isEmpty }, "nothing left the window during the burst")
    }

    @Test("an outage longer than the window ends the follow with the typed error")
    func outageTooLong() async throws {
        let live = try Live(canSkipUntil: nil)
        let reloader = LiveReloader(url: live.server.baseURL.appendingPathComponent("live.m3u8"),
                                    client: HLSClient(transport: live.transport, clock: ImmediateClock()))
        let channel = SnapshotChannel()
        let run = Task { () async -> HLSError? in
            do throws(HLSError) { try await reloader.run(into: channel) } catch { return error }
            return nil
        }
        var snapshots = 0
        for await _ in channel {
            snapshots += 1
            live.origin.setOutage(true)
            live.origin.advance(parts: 1)
        }
        let failure = await run.value
        #expect(snapshots >= 1)
        #expect(failure?.code == .httpStatus && failure?.message.contains("could not be reloaded for") == true, "\(String(describing: failure))")
    }
}
