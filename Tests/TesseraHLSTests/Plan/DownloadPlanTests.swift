import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraSupport

@Suite("DownloadPlan (no sockets)")
struct DownloadPlanTests {
    @Test("fMP4: the map comes first, contiguous ranges of one file coalesce up to the cap, sizes and duration add up")
    func fragmented() throws {
        let plan = try PlanText.plan(PlanText.ranges(count: 10, size: 1000), maximumCoalescedBytes: 4100)
        #expect(plan.container == .fragmentedMP4 && plan.segmentCount == 10 && plan.resourceCount == 11)
        #expect(plan.knownBytes == 10_100 && plan.duration == 40 && plan.largestRange == 1000)
        #expect(plan.resource(at: 0).identity.kind == .initialization)
        let fetches = Array(plan.fetches(from: 0))
        #expect(fetches.map(\.resources.count) == [5, 4, 2])
        #expect(fetches.map(\.range) == [ByteRange(offset: 0, length: 4100), ByteRange(offset: 4100, length: 4000),
                                          ByteRange(offset: 8100, length: 2000)])
        #expect(plan.requestCount == 3)
        #expect(fetches.flatMap(\.resources).map(\.identity) == (0..<11).map { plan.resource(at: $0).identity })
        // Resuming from the middle of a coalesced fetch starts a new one there.
        var resumed = plan.fetches(from: 7)
        #expect(resumed.next()?.range == ByteRange(offset: 6100, length: 4000))
    }

    @Test("ranges coalesce only when they follow each other in one file")
    func coalescingBreaks() throws {
        let plan = try PlanText.plan("""
        #EXTINF:4,
        #EXT-X-BYTERANGE:100@0
        a.ts
        #EXTINF:4,
        #EXT-X-BYTERANGE:100@200
        a.ts
        #EXTINF:4,
        #EXT-X-BYTERANGE:100@300
        b.ts
        #EXTINF:4,
        c.ts
        #EXTINF:4,
        c.ts
        """)
        #expect(plan.container == .mpegTS && plan.requestCount == 5 && plan.knownBytes == nil)
    }

    @Test("layouts one file cannot hold are refused before any request, with the reason")
    func refusals() {
        let cases: [(String, HLSError.Code, String)] = [
            ("#EXTINF:4,\na.ts\n#EXT-X-GAP\n#EXTINF:4,\nb.ts", .unsupported, "EXT-X-GAP"),
            (PlanText.ranges(count: 1, size: 10) + "#EXT-X-DISCONTINUITY\n#EXTINF:4,\nx.m4s", .unsupported, "DISCONTINUITY"),
            ("#EXT-X-MAP:URI=\"a.mp4\"\n#EXTINF:4,\na.m4s\n#EXT-X-MAP:URI=\"b.mp4\"\n#EXTINF:4,\nb.m4s", .unsupported, "EXT-X-MAP"),
            ("#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n#EXTINF:4,\na.ts", .unsupported, "SAMPLE-AES"),
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"skd://k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n#EXTINF:4,\na.ts", .unsupported, "DRM"),
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:4,\na.m4s", .invalidPlaylist, "IV"),
            ("#EXTINF:4,\n#EXT-X-BYTERANGE:0@0\na.ts", .invalidPlaylist, "0 bytes"),
            ("#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"10@18446744073709551610\"\n#EXTINF:4,\na.m4s", .invalidPlaylist, "2^64"),
            ("#EXTINF:4,\nftp://cdn.example/a.ts", .unsupported, "scheme"),
            ("#EXTINF:4,\nhttp://cdn.example/a.ts", .unsupported, "downgrade"),
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"http://keys.example/k\"\n#EXTINF:4,\na.ts", .unsupported, "downgrade"),
        ]
        for (body, code, word) in cases {
            let error = PlanText.error(body)
            #expect(error?.code == code && error?.message.contains(word) == true, "\(body): \(String(describing: error))")
        }
    }

    @Test("the fingerprint ignores signed query values and follows ranges, EXTINF, IVs and order")
    func fingerprint() throws {
        let plain = try PlanText.plan("#EXTINF:4,\na.ts?sig=1\n#EXTINF:4,\nb.ts")
        #expect(try PlanText.plan("#EXTINF:4,\na.ts?sig=2\n#EXTINF:4,\nb.ts").fingerprint == plain.fingerprint)
        #expect(try PlanText.plan("#EXTINF:5,\na.ts?sig=1\n#EXTINF:4,\nb.ts").fingerprint != plain.fingerprint)
        #expect(try PlanText.plan("#EXTINF:4,\nb.ts\n#EXTINF:4,\na.ts").fingerprint != plain.fingerprint)
        let keyed = "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x000102030405060708090A0B0C0D0E0F\n#EXTINF:4,\na.ts"
        let otherIV = keyed.replacingOccurrences(of: "0F\n", with: "0E\n")
        #expect(try PlanText.plan(keyed).fingerprint != PlanText.plan(otherIV).fingerprint)
        #expect(try PlanText.plan(keyed).keyCount == 1)
    }

    @Test("the fingerprint's text is the one checkpoints written before were keyed by: one line per resource, hashed as it was")
    func fingerprintFormat() throws {
        let plan = try PlanText.plan("""
        #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090A0B0C0D0E0F
        #EXTINF:4.004,
        #EXT-X-BYTERANGE:1024@720
        media.ts?sig=1#frag
        #EXT-X-DISCONTINUITY
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:3.5,
        #EXT-X-BYTERANGE:512
        media.ts
        #EXTINF:4,
        whole.ts
        """)
        // The formula the fingerprint was first made with, one string per line.
        let hasher = try SHA256Hasher()
        hasher.update(Array("tessera-plan 2\n\(plan.container.rawValue)\n".utf8))
        for index in 0..<plan.resourceCount {
            let resource = plan.resource(at: index)
            let range = resource.identity.byteRange.map { "\($0.offset)+\($0.length.map(String.init) ?? "")" } ?? "-"
            let iv = resource.encryption.map { HexCoding.encode($0.iv) } ?? "clear"
            let uri = resource.uri.prefix { $0 != "?" && $0 != "#" }
            hasher.update(Array("\(resource.identity.kind.rawValue) \(uri) \(range) \(resource.duration) \(resource.startsDiscontinuity) \(iv)\n".utf8))
        }
        #expect(plan.resourceCount == 3)
        #expect(plan.fingerprint == hasher.finalize())
    }

    @Test("a segment's IV is its key's, or its media sequence number; the key is resolved where the media is")
    func encryption() throws {
        let plan = try PlanText.plan("""
        #EXT-X-MEDIA-SEQUENCE:7
        #EXT-X-KEY:METHOD=AES-128,URI="k1"
        #EXTINF:4,
        a.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k2",IV=0x0000000000000000000000000000FFFF
        #EXTINF:4,
        b.ts
        """)
        let first = try #require(plan.resource(at: 0).encryption)
        #expect(first.iv == Array(repeating: 0, count: 15) + [7] && first.keyURI == "k1")
        #expect(plan.resource(at: 1).encryption?.iv.suffix(2) == [0xFF, 0xFF])
        #expect(plan.keyCount == 2)
    }

    @Test("planning a long playlist holds nothing per resource: resources are made on demand and agree with the lazy run")
    func lazy() throws {
        let body = (0..<2000).map { "#EXTINF:4,\nseg_\($0).ts" }.joined(separator: "\n")
        let plan = try PlanText.plan(body)
        #expect(plan.requestCount == 2000)
        var index = 0
        for fetch in plan.fetches(from: 0) {
            #expect(fetch.resources.count == 1 && fetch.uri == "seg_\(index).ts" && fetch.resources[0].identity.mediaSequence == UInt64(index))
            index += 1
        }
        #expect(index == 2000 && plan.resource(at: 1999).uri == "seg_1999.ts")
    }
}
