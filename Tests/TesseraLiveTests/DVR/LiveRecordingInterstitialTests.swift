import Foundation
import Testing
import TesseraHLS
import TesseraLive
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// `Options.interstitials` against the test origin with an Apple interstitial Date Range on every
/// even segment, its asset a VOD presentation (the pinned TS fixture) on a second loopback server:
/// the ranges a recording keeps point at a local package of the asset; an asset that cannot be
/// packaged whole leaves its ranges out, counted, and nothing of it behind.
@Suite("Live recording of interstitials: assets packaged locally, or the range omitted whole")
struct LiveRecordingInterstitialTests {
    typealias Live = LiveRecordingTests.Live

    /// The ad server: `ad/` holds the fixture VOD presentation, `list.json` an asset list of it.
    final class Ads: Sendable {
        let folder: TemporaryDirectory
        let server: OriginSimulator

        init() throws {
            folder = try TemporaryDirectory()
            let ad = folder.url.appendingPathComponent("ad")
            try FileManager.default.createDirectory(at: ad, withIntermediateDirectories: true)
            for name in ["index.m3u8", "seg_000.ts", "seg_001.ts", "seg_002.ts", "seg_003.ts"] {
                try Data(try FixtureStore.bytes("a_ts_vod/" + name)).write(to: ad.appendingPathComponent(name))
            }
            server = try OriginSimulator(root: folder.url)
            let list = "{\"ASSETS\":[{\"URI\":\"\(server.baseURL.absoluteString)/ad/index.m3u8\",\"DURATION\":8.0}],\"SKIP-CONTROL\":{\"OFFSET\":2}}"
            try Data(list.utf8).write(to: folder.url.appendingPathComponent("list.json"))
        }

        func url(_ path: String) -> String { server.baseURL.absoluteString + "/" + path }
    }

    /// An origin whose even segments start an interstitial naming `path` of `ads` by `attribute`.
    static func live(_ ads: Ads, _ attribute: String, _ path: String) throws -> Live {
        try Live {
            $0.interstitialEvery = 2
            $0.interstitialAsset = "\(attribute)=\"\(ads.url(path))\""
        }
    }

    /// Records 8 s from now (segments 5–8; interstitials `ad6` and `ad8` inside, `ad0`–`ad4` before).
    private func record(_ live: Live, interstitials: RecordingInterstitials? = RecordingInterstitials()) async throws
        -> (report: RecordingReport, failures: [String]) {
        var options = LiveRecording.Options()
        options.duration = .seconds(8)
        options.interstitials = interstitials
        let publisher = LiveRecordingTests.Publisher(live.origin)
        let failures = Lock([String]())
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress) }
            if case .job(.interstitialFailed(let reason)) = event { failures.withLock { $0.append(reason) } }
        }
        return (report, failures.withLock { $0 })
    }

    private func ranges(_ live: Live) throws -> (playlist: MediaPlaylist, verification: PackageVerification) {
        let verification = try live.verified()
        return (try live.playlist(verification), verification)
    }

    @Test("X-ASSET-URI: the asset packaged once as a local VOD package, both kept ranges pointing at it, the package verified through it")
    func assetURI() async throws {
        let ads = try Ads()
        let live = try Self.live(ads, "X-ASSET-URI", "ad/index.m3u8")
        let (report, failures) = try await record(live)
        let interstitials = try #require(report.interstitials)
        #expect(interstitials.kept == 2 && interstitials.omitted == 0 && interstitials.assets == 1 && interstitials.bytes > 0, "\(interstitials) \(failures)")
        let (playlist, verification) = try ranges(live)
        #expect(playlist.dateRanges.map(\.id) == ["ad6", "ad8"])
        let uris = playlist.dateRanges.compactMap { range in range.clientAttributes.first { $0.name == "X-ASSET-URI" } }.map { attribute -> String in
            if case .string(let text) = attribute.value { return text }
            return ""
        }
        #expect(uris.count == 2 && Set(uris).count == 1 && uris[0].hasPrefix("../interstitials/") && uris[0].hasSuffix("/asset/master.m3u8"), "\(uris)")
        let asset = String(uris[0].dropFirst(3).dropLast("master.m3u8".count))
        let copied = try Data(contentsOf: live.destination.appendingPathComponent(asset + "video/seg_001.ts"))
        #expect(Array(copied) == (try FixtureStore.bytes("a_ts_vod/seg_001.ts")), "the asset's media as served")
        #expect(verification.manifest?.files.contains { $0.path == asset + "master.m3u8" } == true)
        #expect(verification.playlists[asset + "video/index.m3u8"] != nil, "the asset's playlists are checked with the package's")
        #expect(!(verification.manifest?.tracks.map(\.id).contains { $0.hasPrefix("interstitials") } ?? true))
        let text = String(decoding: try #require(verification.playlists["video/index.m3u8"]), as: UTF8.self)
        #expect(!text.contains("127.0.0.1"), "URL-free: \(text)")
    }

    @Test("X-ASSET-LIST: a local asset list naming the packaged assets relatively, its SKIP-CONTROL kept")
    func assetList() async throws {
        let ads = try Ads()
        let live = try Self.live(ads, "X-ASSET-LIST", "list.json")
        let (report, failures) = try await record(live)
        #expect(report.interstitials?.kept == 2 && report.interstitials?.assets == 1, "\(failures)")
        let (playlist, _) = try ranges(live)
        let attribute = try #require(playlist.dateRanges.first?.clientAttributes.first { $0.name == "X-ASSET-LIST" })
        guard case .string(let uri) = attribute.value else { Issue.record("X-ASSET-LIST is not a string"); return }
        #expect(uri.hasPrefix("../interstitials/") && uri.hasSuffix("/list.json"))
        let list = try JSONSerialization.jsonObject(with: Data(contentsOf: live.destination.appendingPathComponent("video").appendingPathComponent(uri))) as? [String: Any]
        let assets = list?["ASSETS"] as? [[String: Any]]
        #expect(assets?.first?["URI"] as? String == "0/master.m3u8" && assets?.first?["DURATION"] as? Double == 8)
        #expect((list?["SKIP-CONTROL"] as? [String: Any])?["OFFSET"] as? Double == 2)
    }

    @Test("an X-ASSET-LIST over its byte bound is refused as the loader reads it: its ranges omitted whole, nothing of it packaged")
    func assetListOverBound() async throws {
        let ads = try Ads()
        let live = try Self.live(ads, "X-ASSET-LIST", "list.json")
        var small = RecordingInterstitials()
        small.maximumListBytes = 16
        let (report, failures) = try await record(live, interstitials: small)
        #expect(report.interstitials?.kept == 0 && report.interstitials?.omitted == 2 && report.interstitials?.assets == 0)
        #expect(failures.count == 1 && failures[0].contains("byte budget"), "told once, why: \(failures)")
        #expect(!ads.server.log.contains { $0.path.hasPrefix("/ad/") }, "no asset of a refused list is fetched")
        #expect(try ranges(live).playlist.dateRanges.isEmpty)
    }

    @Test("an asset that cannot be fetched: its ranges omitted whole and counted, nothing of it in the package")
    func assetMissing() async throws {
        let ads = try Ads()
        let live = try Self.live(ads, "X-ASSET-URI", "gone/index.m3u8")
        let (report, failures) = try await record(live)
        #expect(report.interstitials == { var expected = RecordingInterstitialsReport(); expected.omitted = 2; return expected }())
        #expect(failures.count == 1 && failures[0].contains("HTTP 404"), "told once, why: \(failures)")
        let (playlist, verification) = try ranges(live)
        #expect(playlist.dateRanges.isEmpty)
        #expect(!(verification.manifest?.files.contains { $0.path.hasPrefix("interstitials/") } ?? true))
        #expect(!FileManager.default.fileExists(atPath: live.destination.appendingPathComponent("interstitials").path))
    }

    @Test("an asset over the byte bound is omitted whole; without --interstitials the ranges are omitted and counted as Date Ranges")
    func boundsAndUnasked() async throws {
        let ads = try Ads()
        let configure: (inout LiveOriginPlaylist.Configuration) -> Void = {
            $0.interstitialEvery = 2
            $0.interstitialAsset = "X-ASSET-URI=\"\(ads.url("ad/index.m3u8"))\""
        }
        var small = RecordingInterstitials()
        small.maximumBytes = 10_000
        let bounded = try Live(adjust: configure)
        let (report, failures) = try await record(bounded, interstitials: small)
        #expect(failures.count == 1 && failures[0].contains("bytes"), "\(failures)")
        #expect(report.interstitials?.kept == 0 && report.interstitials?.omitted == 2)
        #expect(try ranges(bounded).playlist.dateRanges.isEmpty)
        var none = RecordingInterstitials()
        none.maximumEvents = 0
        let unbudgeted = try Live(adjust: configure)
        let asked = ads.server.log.count
        let nothing = try await record(unbudgeted, interstitials: none)
        #expect(nothing.report.interstitials?.omitted == 2 && nothing.report.interstitials?.assets == 0 && nothing.failures.isEmpty,
                "past the source bound nothing is fetched: \(nothing.failures)")
        #expect(ads.server.log.count == asked, "the ad server never asked")
        let unasked = try Live(adjust: configure)
        let plain = try await record(unasked, interstitials: nil).report
        #expect(plain.interstitials == nil && plain.dateRangesOmitted >= 5, "ad0–ad8: \(plain.dateRangesOmitted)")
        #expect(try ranges(unasked).playlist.dateRanges.isEmpty)
    }
}
