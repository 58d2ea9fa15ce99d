import Testing
@testable import TesseraPlaylist

@Suite("Constructible playlists and their transformations")
struct PlaylistTransformTests {
    /// A URL-free local playlist built in code: a map, rotating keys, a byte range, parts.
    static func local() -> MediaPlaylist {
        let map = MediaInitializationSection(uri: "init.mp4", byteRange: PlaylistByteRange(length: 720, offset: 0))
        let key = SegmentKey(method: .aes128, uri: "https://keys.example/k1?token=secret", iv: Array(0..<16))
        var playlist = MediaPlaylist(version: 7, targetDuration: 4, playlistType: .vod, hasEndList: true,
                                     hasIndependentSegments: true, partInformation: PartInformation(partTarget: 1),
                                     serverControl: ServerControl(partHoldBack: 3))
        for index in 0..<3 {
            let range = PlaylistByteRange(length: 1000, offset: UInt64(720 + 1000 * index))
            let keys: [SegmentKey] = index == 2 ? [] : [key]
            playlist.segments.append(MediaSegment(uri: "media.m4s", duration: 4, durationText: "4.000", mediaSequence: UInt64(index),
                                                  byteRange: range, keys: keys, map: map))
        }
        playlist.segments[0].programDateTime = ProgramDateTime(text: "2026-12-01T00:00:00.000Z")
        playlist.segments[1].title = "second"
        playlist.segments[1].parts = [PartialSegment(uri: "part.m4s", duration: 1, durationText: "1.0", isIndependent: true)]
        playlist.dateRanges = [DateRange(id: "ad", startDate: ProgramDateTime(text: "2026-12-01T00:00:00Z"),
                                         clientAttributes: [ClientAttribute(name: "X-ASSET-URI", value: .string("ad.m3u8"))])]
        return playlist
    }

    @Test("a playlist built in code is written and reads back equal")
    func constructedRoundTrip() throws {
        let playlist = Self.local()
        let text = PlaylistWriter().write(.media(playlist))
        let parsed = try PlaylistParser().parse(Array(text.utf8))
        #expect(parsed.playlist == .media(playlist), "\(text)")
        #expect(text.contains("#EXTINF:4.000,second\n"))
        #expect(parsed.diagnostics.filter { $0.severity == .error }.isEmpty, "\(parsed.diagnostics)")
    }

    @Test("every URI is rewritten once with its role; shared maps stay shared")
    func rewriting() throws {
        var roles: [PlaylistURIRole] = []
        let rewritten = Self.local().rewritingURIs { uri, role in
            roles.append(role)
            return "local/" + (uri.split(separator: "/").last.map(String.init) ?? uri)
        }
        #expect(Set(roles) == [.segment, .map, .key, .part, .interstitialAsset(attribute: "X-ASSET-URI")])
        #expect(roles.filter { $0 == .map }.count == 1)
        #expect(rewritten.segments.allSatisfy { $0.uri == "local/media.m4s" && $0.map?.uri == "local/init.mp4" })
        #expect(rewritten.segments[0].mapBox === rewritten.segments[2].mapBox)
        #expect(rewritten.segments[0].keys.first?.uri == "local/k1?token=secret")
        #expect(rewritten.dateRanges[0].clientAttribute("X-ASSET-URI") == .string("local/ad.m3u8"))
        let text = PlaylistWriter().write(.media(rewritten))
        #expect(try PlaylistParser().parse(Array(text.utf8)).playlist == .media(rewritten))
    }

    @Test("writing with URIs rewritten gives the text of the rewritten playlist: every role, map and key runs, URIs made equal by the rewrite")
    func writingRewritten() throws {
        var playlist = Self.local()
        playlist.hasEndList = false
        let other = MediaInitializationSection(uri: "other-init.mp4")
        let rotated = SegmentKey(method: .aes128, uri: "k2", iv: Array(repeating: 7, count: 16))
        for index in 3..<9 {
            playlist.segments.append(MediaSegment(uri: "s\(index).m4s", duration: 4, mediaSequence: UInt64(index),
                                                  keys: index % 3 == 0 ? [] : [rotated], map: index % 2 == 0 ? other : Self.local().segments[0].map))
        }
        playlist.pendingParts = [PartialSegment(uri: "pending.m4s", duration: 1, durationText: "1.0")]
        playlist.preloadHints = [PreloadHint(type: .part, uri: "next.m4s"), PreloadHint(type: .map, uri: "other-init.mp4")]
        playlist.renditionReports = [RenditionReport(uri: "../audio/index.m3u8", lastMediaSequence: 8), RenditionReport(lastMediaSequence: 8)]
        let transforms: [(String, PlaylistURIRole) -> String] = [
            { uri, _ in uri },
            { uri, role in "\(role)/" + String(uri.map { $0 == "/" ? "_" : $0 }) },
            { _, _ in "same" },   // distinct maps and keys written as equal ones
            { uri, role in role == .map ? "one-map.mp4" : uri },
        ]
        for transform in transforms {
            let direct = PlaylistWriter().write(playlist, rewritingURIs: transform)
            let materialized = PlaylistWriter().write(.media(playlist.rewritingURIs(transform)))
            #expect(direct == materialized, "\(direct)\n----\n\(materialized)")
        }
        #expect(PlaylistWriter().write(playlist, rewritingURIs: { uri, _ in uri }) == PlaylistWriter().write(.media(playlist)))
    }

    @Test("removing keys leaves plaintext segments and maps, and no EXT-X-KEY in the text")
    func removingKeys() throws {
        var playlist = Self.local()
        playlist.segments[0].map?.keys = [SegmentKey(method: .aes128, uri: "k0", iv: Array(repeating: 1, count: 16))]
        let clear = playlist.removingKeys()
        #expect(clear.segments.allSatisfy { $0.keys.isEmpty && $0.map?.keys.isEmpty != false })
        let text = PlaylistWriter().write(.media(clear))
        #expect(!text.contains("EXT-X-KEY") && !text.contains("k1"))
        #expect(try PlaylistParser().parse(Array(text.utf8)).playlist == .media(clear))
    }

    @Test("appending continues the media sequence, and refuses a segment out of sequence")
    func appending() throws {
        var live = Self.local()
        live.hasEndList = false
        let next = MediaSegment(uri: "next.m4s", duration: 4, mediaSequence: 3)
        let longer = try live.appending([next])
        #expect(longer.segments.map(\.mediaSequence) == [0, 1, 2, 3])
        #expect(longer.segments[3].durationText == "4")
        #expect(throws: PlaylistError.self) { try live.appending([MediaSegment(uri: "gap.m4s", duration: 4, mediaSequence: 5)]) }
        var empty = MediaPlaylist(targetDuration: 4, mediaSequence: 10)
        empty = try empty.appending([MediaSegment(uri: "a.ts", duration: 4, mediaSequence: 10)])
        #expect(empty.segments.count == 1)
    }

    @Test("removing the defines keeps the substituted text; a multivariant playlist rewrites every URI role")
    func definesAndMultivariant() throws {
        let parsed = try PlaylistParser().parse(Array("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="host",VALUE="cdn.example"
        #EXT-X-TARGETDURATION:4
        #EXTINF:4,
        https://{$host}/a.ts
        #EXT-X-ENDLIST
        """.utf8))
        guard case .media(let media) = parsed.playlist else { Issue.record("not media"); return }
        let standalone = try media.removingDefines()
        #expect(standalone.defines.isEmpty && standalone.segments[0].uri == "https://cdn.example/a.ts")
        let multivariant = MultivariantPlaylist(
            variants: [Variant(uri: "v.m3u8", bandwidth: 1_000_000, audio: "aac")],
            iFrameVariants: [Variant(uri: "i.m3u8", bandwidth: 100_000)],
            renditions: [Rendition(type: .audio, uri: "a.m3u8", groupId: "aac", name: "English")],
            sessionData: [SessionData(dataId: "com.example.title", uri: "title.json", format: .json)],
            sessionKeys: [SegmentKey(method: .aes128, uri: "k")],
            contentSteering: ContentSteering(serverURI: "https://steer.example/s.json"))
        var roles: Set<PlaylistURIRole> = []
        let rewritten = multivariant.rewritingURIs { uri, role in
            roles.insert(role)
            return "x-" + uri
        }
        #expect(roles == [.variant, .iFrameVariant, .rendition, .sessionData, .key, .steeringServer])
        #expect(rewritten.removingSessionKeys().sessionKeys.isEmpty)
        let text = PlaylistWriter().write(.multivariant(rewritten))
        #expect(try PlaylistParser().parse(Array(text.utf8)).playlist == .multivariant(rewritten), "\(text)")
    }
}
