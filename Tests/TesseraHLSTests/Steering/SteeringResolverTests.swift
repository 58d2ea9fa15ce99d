import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTPTesting
import TesseraPlaylist

@Suite("Steering resolver: throughput becomes _HLS_throughput; pathway playlist loads end with the transfer")
struct SteeringResolverTests {
    /// A resolver of the "hd" variant planned on pathway A, loading other pathways' playlists with `load`.
    static func resolver(load: @escaping @Sendable (URL) async throws(HLSError) -> (MediaPlaylist, URL)) throws
        -> (SteeringController, SteeringResolver) {
        let playlist = try SteeringStateTests.multivariant()
        let state = try SteeringState(multivariant: playlist, url: SteeringStateTests.url, steering: playlist.contentSteering!)
        let controller = SteeringController(state: state, url: SteeringStateTests.url,
                                            client: HLSClient(transport: MockTransport(), clock: ImmediateClock()))
        guard case .media(let media) = try PlaylistParser().parse(Array(GraphHarness.media().utf8)).playlist else { preconditionFailure() }
        let resolver = SteeringResolver(controller: controller, stream: .main, equivalent: .variant(stableId: "hd"), planned: media,
                                        plannedURL: URL(string: "https://cdn-a.example/vod/a/hd.m3u8")!, plannedPathway: "A",
                                        multivariantURL: SteeringStateTests.url, load: load)
        return (controller, resolver)
    }

    @Test("fetch samples make a weighted estimate the next manifest request carries; very short samples are ignored")
    func estimate() async throws {
        let (controller, resolver) = try Self.resolver { _ throws(HLSError) in throw HLSError(.fetchFailed, "not used") }
        let location = ResolvedLocation(url: URL(string: "https://cdn-a.example/vod/a/s0.ts")!, pathway: "A")
        #expect(resolver.wantsThroughput)
        await resolver.fetched(1_000_000, from: location, in: .seconds(1))
        #expect(await controller.throughput == 8_000_000)
        await resolver.fetched(2_000_000, from: location, in: .seconds(1))
        await resolver.fetched(5_000_000, from: location, in: .milliseconds(10))
        let throughput = await controller.throughput
        #expect(throughput == 10_400_000, "0.7 × 8 Mb/s + 0.3 × 16 Mb/s; the 10 ms sample ignored")
        let request = await controller.state.request(throughput: throughput)
        #expect(request == .url(URL(string: "https://steer.example/manifest.json?session=1&_HLS_pathway=A&_HLS_throughput=10400000")!))
        #expect(!PlaylistURLResolver(playlistURL: SteeringStateTests.url).wantsThroughput)
    }

    @Test("cancelling the transfer cancels the pathway playlist load its fetch waits for", .timeLimit(.minutes(1)))
    func cancelledLoad() async throws {
        let (started, startedContinuation) = AsyncStream<URL>.makeStream()
        let (ended, endedContinuation) = AsyncStream<Bool>.makeStream()
        let (never, neverContinuation) = AsyncStream<Void>.makeStream()
        let (controller, resolver) = try Self.resolver { url throws(HLSError) in
            startedContinuation.yield(url)
            for await _ in never {}  // ends only when this load is cancelled
            endedContinuation.yield(Task.isCancelled)
            throw HLSError(.cancelled, "load cancelled")
        }
        #expect(await controller.pathwayFailed("A") == "B")
        let waiter = Task { try await resolver.location(of: "s0.ts", in: .main) }
        var loads = started.makeAsyncIterator()
        #expect(await loads.next() == URL(string: "https://cdn-b.example/vod/hd.m3u8"))
        waiter.cancel()
        var outcome = ended.makeAsyncIterator()
        #expect(await outcome.next() == true, "the load saw the cancellation")
        let result = await waiter.result
        #expect(throws: HLSError.self) { try result.get() }
        if case .failure(let error as HLSError) = result { #expect(error.code == .cancelled) }
        neverContinuation.finish()
    }
}
