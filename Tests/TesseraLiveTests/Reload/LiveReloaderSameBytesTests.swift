import Foundation
import Testing
import TesseraHLS
import TesseraHTTPTesting
@testable import TesseraLive
import TesseraPlaylist
import TesseraSupport

/// A reload that answers the very bytes the held playlist was read from is that playlist again,
/// not parsed a second time (a playlist that never moves on costs no new model each reload) —
/// and only then.
@Suite("Live reloader: a reload answering the held playlist's bytes")
struct LiveReloaderSameBytesTests {
    static let url = URL(string: "https://live.example/v.m3u8")!
    static let bytes = LiveReloaderTests.playlist(10...12, control: nil)
    static let plan = ReloadScheduler.Plan(mode: .poll, directives: nil, wait: .zero, timeout: nil)

    /// One reload of `url` answering `bytes`, holding `held` read from `heldBody`.
    static func reload(_ url: URL = url, held: MediaPlaylist?, heldBody: (digest: SHA256Digest, url: URL)?) async -> LiveReloader.Outcome {
        let transport = MockTransport()
        transport.stub(url, .ok(bytes))
        let reloader = LiveReloader(url: url, client: HLSClient(transport: transport))
        let request = LiveReloader.request(url, plan, maximumBytes: 1 << 20, first: held == nil)
        return await reloader.reload(request, plan: plan, held: held, heldBody: heldBody, loader: PlaylistLoader(transport: transport), importing: [:])
    }

    @Test("the same bytes from the same URL give the held playlist; other bytes, or the same from another URL, are read anew")
    func sameBytes() async throws {
        guard case .loaded(let first, _, let digest?) = await Self.reload(held: nil, heldBody: nil) else {
            Issue.record("the first load did not give a playlist and its digest"); return
        }
        #expect(digest == SHA256Hasher.hash(Self.bytes))
        #expect(first.segments.map(\.mediaSequence) == [10, 11, 12])
        // A held copy the bytes would not give (its last segment removed) shows which path was taken.
        var held = first
        held.segments.removeLast()
        guard case .loaded(let same, _, let again) = await Self.reload(held: held, heldBody: (digest, Self.url)) else {
            Issue.record("the reload of the same bytes failed"); return
        }
        #expect(same == held && again == digest, "the held playlist, not a new parse")
        guard case .loaded(let other, _, _) = await Self.reload(held: held, heldBody: (SHA256Hasher.hash([0]), Self.url)) else {
            Issue.record("the reload of other bytes failed"); return
        }
        #expect(other == first, "bytes other than the held playlist's are parsed")
        let moved = URL(string: "https://other.example/v.m3u8")!
        guard case .loaded(let elsewhere, _, _) = await Self.reload(moved, held: held, heldBody: (digest, Self.url)) else {
            Issue.record("the reload from another URL failed"); return
        }
        #expect(elsewhere.segments.count == 3, "the same bytes answered at another URL are parsed: their URIs resolve against it")
    }
}
