import Foundation
import Testing
@testable import TesseraPlaylist
import TesseraTestSupport

@Suite("tessera inspect --json contract")
struct InspectJSONContractTests {
    static let topLevel = ["kind", "version", "targetDuration", "mediaSequence", "discontinuitySequence", "playlistType",
                           "endList", "iFramesOnly", "segments", "variants", "iFrameVariants", "renditions", "sessionData",
                           "sessionKeys", "dateRanges", "serverControl", "partInf", "preloadHints", "renditionReports", "skip",
                           "contentSteering", "defines", "start", "independentSegments", "diagnostics"]
    static let segmentKeys = ["uri", "duration", "title", "byteRange", "discontinuity", "programDateTime", "key", "map",
                              "gap", "bitrate", "parts"]
    static let variantKeys = ["uri", "bandwidth", "averageBandwidth", "codecs", "resolution", "frameRate", "audio", "video",
                              "subtitles", "closedCaptions", "stableVariantId", "pathwayId", "score", "videoRange", "hdcpLevel"]
    static let renditionKeys = ["type", "groupId", "name", "language", "uri", "default", "autoselect", "forced",
                                "characteristics", "channels", "stableRenditionId"]

    func json(_ text: String) throws -> [String: Any] {
        let parsed = try PlaylistParser().parse(Array(text.utf8))
        let rendered = PlaylistJSON.render(parsed)
        return try #require(JSONSerialization.jsonObject(with: Data(rendered)) as? [String: Any])
    }

    /// Keys in the order they were written.
    func orderedKeys(_ text: String) throws -> [String] {
        let rendered = String(decoding: PlaylistJSON.render(try PlaylistParser().parse(Array(text.utf8))), as: UTF8.self)
        return rendered.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { line in
            String(line.dropFirst(3).prefix { $0 != "\"" })
        }
    }

    @Test("a media playlist has every top-level field, in contract order, with nulls and falses for absent values")
    func mediaShape() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n"
        #expect(try orderedKeys(text) == Self.topLevel)
        let object = try json(text)
        #expect(object["kind"] as? String == "media")
        #expect(object["version"] is NSNull && object["playlistType"] is NSNull && object["serverControl"] is NSNull)
        #expect(object["mediaSequence"] as? Int == 0 && object["endList"] as? Bool == false)
        let segment = try #require((object["segments"] as? [[String: Any]])?.first)
        #expect(Set(segment.keys) == Set(Self.segmentKeys))
        #expect(segment["byteRange"] is NSNull && segment["key"] is NSNull && segment["title"] is NSNull)
        #expect(segment["duration"] as? Double == 2 && segment["gap"] as? Bool == false)
    }

    @Test("segments report the written URI, byte ranges with null offsets, the key in force and the map")
    func segmentValues() throws {
        let object = try json("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="p",VALUE="media"
        #EXT-X-TARGETDURATION:2
        #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0000000000000000000000000000000A
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="10@0"
        #EXTINF:2,t
        #EXT-X-BYTERANGE:100@10
        {$p}.mp4
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:1.5,
        #EXT-X-BYTERANGE:50
        {$p}.mp4
        """)
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments[0]["uri"] as? String == "media.mp4" && segments[0]["title"] as? String == "t")
        let key = try #require(segments[0]["key"] as? [String: Any])
        #expect(key["method"] as? String == "AES-128" && key["iv"] as? String == "0x0000000000000000000000000000000A")
        #expect(key["keyFormat"] as? String == "identity")
        #expect(segments[1]["key"] is NSNull)
        let range = try #require(segments[1]["byteRange"] as? [String: Any])
        #expect(range["length"] as? Int == 50 && range["offset"] is NSNull)
        let map = try #require(segments[0]["map"] as? [String: Any])
        #expect(map["uri"] as? String == "init.mp4")
        let defines = try #require(object["defines"] as? [[String: Any]])
        #expect(defines.first?["name"] as? String == "p")
    }

    @Test("a multivariant playlist reports variants, I-frame variants and renditions in the contract's shapes")
    func multivariantShape() throws {
        let object = try json(String(decoding: try FixtureStore.bytes("e_multivariant/master.m3u8"), as: UTF8.self))
        #expect(object["kind"] as? String == "multivariant" && object["targetDuration"] is NSNull)
        let variants = try #require(object["variants"] as? [[String: Any]])
        #expect(variants.count == 2 && Set(variants[0].keys) == Set(Self.variantKeys))
        let resolution = try #require(variants[0]["resolution"] as? [String: Any])
        #expect(resolution["width"] as? Int == 160 && resolution["height"] as? Int == 90)
        let renditions = try #require(object["renditions"] as? [[String: Any]])
        #expect(Set(renditions[0].keys) == Set(Self.renditionKeys))
        #expect(renditions[0]["default"] as? Bool == true && renditions[1]["forced"] as? Bool == false)
    }

    @Test("diagnostics carry severity, code, line and message")
    func diagnostics() throws {
        let object = try json("#EXTM3U\n#EXT-X-TARGETDURATION:x\n")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["code"] as? String == "malformed-tag-value")
        #expect(diagnostics.first?["severity"] as? String == "error" && diagnostics.first?["line"] as? Int == 2)
        #expect(diagnostics.last?["line"] is NSNull)
    }

    @Test("strings are escaped as JSON requires")
    func escaping() throws {
        var output: [UInt8] = []
        var writer = JSONWriter { output.append(contentsOf: $0) }
        writer.beginObject()
        writer.key("s")
        writer.string("a\"b\\c\u{1}")
        writer.key("e")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        writer.finish()
        #expect(String(decoding: output, as: UTF8.self) == "{\n  \"s\": \"a\\\"b\\\\c\\u0001\",\n  \"e\": []\n}")
    }
}
