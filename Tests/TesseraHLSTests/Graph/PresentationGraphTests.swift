import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraPlaylist
import TesseraTestSupport
import TesseraSupport

@Suite("Presentation graph: loading every media playlist of a multivariant playlist")
struct PresentationGraphTests {
    typealias H = GraphHarness
    static let presentation = H.multivariant(
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/en.m3u8\"",
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Main\",LANGUAGE=\"en\",URI=\"v1.m3u8\"",
        "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",URI=\"subs/en.m3u8\"",
        "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"CC\",INSTREAM-ID=\"CC1\"",
        "#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS=\"avc1.4d401f,mp4a.40.2\",AUDIO=\"aac\",SUBTITLES=\"subs\",CLOSED-CAPTIONS=\"cc\",PATHWAY-ID=\"A\"\nv1.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS=\"avc1.4d401f,mp4a.40.2\",AUDIO=\"aac\",SUBTITLES=\"subs\",CLOSED-CAPTIONS=\"cc\",PATHWAY-ID=\"B\"\nhttps://other.example/v1.m3u8",
        "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,CODECS=\"avc1.4d401f\",URI=\"v1-iframes.m3u8\"")
    static let children = ["v1.m3u8": H.media(), "audio/en.m3u8": H.media(ext: "aac"), "subs/en.m3u8": H.media(ext: "vtt"),
                           "v1-iframes.m3u8": H.media(header: "#EXT-X-I-FRAMES-ONLY\n")]

    static func harness() -> GraphHarness {
        let harness = GraphHarness(presentation, children)
        harness.mock.stub(URL(string: "https://other.example/v1.m3u8")!, .ok(Array(H.media().utf8)))
        return harness
    }

    @Test("each URI is fetched once; roles, groups, pathways and references are recorded; closed captions have no playlist")
    func structure() async throws {
        let harness = Self.harness()
        let graph = try await harness.load()
        #expect(graph.playlists.map(\.uri) == ["v1.m3u8", "https://other.example/v1.m3u8", "v1-iframes.m3u8", "audio/en.m3u8", "subs/en.m3u8"])
        #expect(graph.playlists.map(\.role) == [.variant, .variant, .iFrame, .audio, .subtitles])
        let shared = graph.playlists[0]
        #expect(shared.references.map(\.role) == [.variant, .audio] && shared.references[1].groupId == "aac")
        #expect(graph.playlists.map(\.pathwayId) == ["A", "B", ".", nil, nil])
        #expect(graph.pathways == ["A", "B"])
        #expect(graph.playlists.allSatisfy { $0.facts != nil && $0.playlist == nil })
        #expect(harness.mock.requests.count == 6, "the multivariant playlist and five children, the shared one once")
        #expect(harness.mock.requests.first?.purpose == .multivariantPlaylist)
        #expect(harness.mock.requests.dropFirst().allSatisfy { $0.purpose == .mediaPlaylist })
        #expect(graph.playlistIndex(role: .audio, index: 1) == 0)
        #expect(graph.playlists[3].facts?.format == .packedAudio && graph.playlists[4].facts?.format == .webVTT)
    }

    @Test("keepPlaylists keeps the parsed children; each child is handed over in order with its parse")
    func keeping() async throws {
        var options = PresentationGraphLoader.Options()
        options.keepPlaylists = true
        options.parallelism = 3
        let loader = PresentationGraphLoader(client: HLSClient(transport: Self.harness().mock, clock: ImmediateClock()), options: options)
        let root = try await loader.loadRoot(GraphHarness.root)
        var seen: [Int] = []
        let graph = try await loader.loadChildren(of: root) { index, playlist, parsed throws(HLSError) in
            seen.append(index)
            if case .media = parsed?.playlist {} else { Issue.record("child \(index) is handed over without its parse") }
        }
        #expect(seen == Array(0..<5))
        #expect(graph.playlists.allSatisfy { $0.playlist?.segments.count == 3 })
    }

    @Test("a child that answers 404 is a playlist-unavailable finding naming it; strict makes it the error")
    func missingChild() async throws {
        let multivariant = H.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\ngone.m3u8?token=SECRET")
        let graph = try await GraphHarness(multivariant).load()
        let finding = try #require(graph.diagnostics.first { $0.id == .playlistUnavailable })
        #expect(finding.source == .index(0) && finding.related == [Diagnostic.Place(source: nil, line: 3)])
        #expect(finding.message.contains("404") && !finding.message.contains("SECRET"))
        guard case .failed(let error) = graph.playlists[0].outcome else { Issue.record("not failed"); return }
        #expect(error.code == .httpStatus)
        await #expect(throws: HLSError.self) { try await GraphHarness(multivariant).load { $0.strict = true } }
    }

    @Test("a selection never names a variant whose playlist could not be loaded; when none loads, nothing is selected and the reason says why")
    func selectionOfUnloadableVariants() async throws {
        let multivariant = H.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=1000\nlow.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=9000\ngone.m3u8")
        let graph = try await GraphHarness(multivariant, ["low.m3u8": H.media()]).load()
        #expect(graph.unloadableVariants == [1: "its playlist could not be loaded (http-status)"])
        let some = PresentationSelector.select(SelectionPolicy(), from: graph.multivariant, unavailable: graph.unloadableVariants)
        #expect(some.variant == 0)
        #expect(some.refusals.map(\.variant) == [1] && some.refusals.map(\.reason) == ["its playlist could not be loaded (http-status)"])
        let none = try await GraphHarness(multivariant).load()
        let nothing = PresentationSelector.select(SelectionPolicy(), from: none.multivariant, unavailable: none.unloadableVariants)
        #expect(nothing.variant == nil && nothing.audio.isEmpty && nothing.refusals.count == 2)
        #expect(nothing.reasons.last == "no variant of pathway \".\" could be loaded (2 refused), so nothing is selected")
    }

    @Test("a child over the byte limit, a redirect loop and a child that is a multivariant playlist are findings")
    func hostileChildren() async throws {
        let multivariant = H.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\nbig.m3u8",
                                          "#EXT-X-STREAM-INF:BANDWIDTH=2,CODECS=\"avc1.4d401f\"\nloop.m3u8",
                                          "#EXT-X-STREAM-INF:BANDWIDTH=3,CODECS=\"avc1.4d401f\"\nnested.m3u8")
        let harness = GraphHarness(multivariant, ["big.m3u8": H.media(count: 400), "nested.m3u8": multivariant])
        harness.mock.stub(H.url("loop.m3u8"), .response(status: 302, headers: ["Location": H.url("loop2.m3u8").absoluteString], chunks: []))
        harness.mock.stub(H.url("loop2.m3u8"), .response(status: 302, headers: ["Location": H.url("loop.m3u8").absoluteString], chunks: []))
        var limits = PlaylistLimits()
        limits.maximumBytes = 4_000
        let graph = try await harness.load { options in options.parser = PlaylistParser(limits: limits) }
        let codes = graph.playlists.map { playlist -> String in
            if case .failed(let error) = playlist.outcome { return error.code.rawValue }
            return "loaded"
        }
        #expect(codes == ["budget-exceeded", "fetch-failed", "multivariant-playlist"])
        let unavailable = graph.diagnostics.filter { $0.id == DiagnosticID.playlistUnavailable }
        #expect(unavailable.count == 2)
        #expect(graph.diagnostics.contains { $0.id == .notMediaPlaylist && $0.source == .index(2) })
    }

    @Test("a media playlist as the entry is refused with a clear error; more children than the limit is budget-exceeded")
    func entryChecks() async throws {
        let media = GraphHarness(H.media())
        await #expect { try await media.load() } throws: { ($0 as? HLSError)?.code == .unsupported }
        let many = GraphHarness(H.multivariant((0..<5).map { "#EXT-X-STREAM-INF:BANDWIDTH=\($0 + 1)\nv\($0).m3u8" }.joined(separator: "\n")))
        await #expect { try await many.load { $0.maximumPlaylists = 4 } } throws: { ($0 as? HLSError)?.code == .budgetExceeded }
    }

    @Test("children IMPORT the multivariant playlist's variables")
    func imports() async throws {
        let multivariant = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"seg\",VALUE=\"part\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\nv.m3u8\n"
        let child = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:IMPORT=\"seg\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$seg}0.ts\n#EXT-X-ENDLIST\n"
        var options = PresentationGraphLoader.Options()
        options.keepPlaylists = true
        let harness = GraphHarness(multivariant, ["v.m3u8": child])
        let graph = try await PresentationGraphLoader(client: HLSClient(transport: harness.mock, clock: ImmediateClock()), options: options).load(GraphHarness.root)
        #expect(graph.playlists[0].playlist?.segments.first?.uri == "part0.ts")
        #expect(graph.diagnostics.isEmpty, "\(graph.diagnostics)")
    }

    @Test("a file's children resolve beside it; one outside its folder is refused")
    func localFiles() async throws {
        let tree = try TemporaryDirectory()
        let folder = tree.url
        _ = try tree.write("v/index.m3u8", Array(H.media().utf8))
        let text = H.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\nv/index.m3u8",
                                  "#EXT-X-STREAM-INF:BANDWIDTH=2,CODECS=\"avc1.4d401f\"\n../escape.m3u8")
        let entry = folder.appendingPathComponent("master.m3u8")
        let loader = PresentationGraphLoader(client: HLSClient(transport: MockTransport(), clock: ImmediateClock()))
        let graph = try await loader.loadChildren(of: try loader.root(Array(text.utf8), url: entry, baseURL: entry))
        #expect(graph.playlists[0].facts?.segmentCount == 3)
        guard case .failed(let error) = graph.playlists[1].outcome else { Issue.record("escaped"); return }
        #expect(error.code == .unsupported && error.message.contains("outside"))
    }

    @Test("the JSON document has every part, children in order, diagnostics indexed; URLs and diagnostics carry no signed query values")
    func json() async throws {
        let multivariant = H.multivariant("#EXT-X-CONTENT-STEERING:SERVER-URI=\"steer.json?sig=SECRET\",PATHWAY-ID=\"A\"",
                                          "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\",PATHWAY-ID=\"A\"\na.m3u8?sig=SECRET",
                                          "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\",PATHWAY-ID=\"B\"\nb.m3u8")
        let harness = GraphHarness(multivariant, ["b.m3u8": H.media(target: 4)])
        harness.mock.stub(H.url("a.m3u8?sig=SECRET"), .ok(Array(H.media().utf8)))
        let loader = PresentationGraphLoader(client: HLSClient(transport: harness.mock, clock: ImmediateClock()))
        let root = try await loader.loadRoot(GraphHarness.root)
        let output = Output()
        let writer = PresentationGraphJSON { output.append($0) }
        writer.begin(root)
        let graph = try await loader.loadChildren(of: root) { _, playlist, parsed throws(HLSError) in writer.playlist(playlist, parsed: parsed) }
        writer.end(graph)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.bytes)) as? [String: Any])
        #expect(Set(object.keys) == ["multivariant", "playlists", "selection", "steering", "diagnostics"])
        let playlists = try #require(object["playlists"] as? [[String: Any]])
        #expect(playlists.map { $0["role"] as? String } == ["variant", "variant"])
        #expect(playlists.map { $0["pathwayId"] as? String } == ["A", "B"])
        #expect(playlists[0]["uri"] as? String == "a.m3u8?sig=SECRET", "the URI as written")
        #expect(playlists[0]["url"] as? String == "https://cdn.example/a.m3u8?<redacted>")
        #expect((playlists[0]["playlist"] as? [String: Any])?["kind"] as? String == "media")
        let steering = try #require(object["steering"] as? [String: Any])
        #expect(steering["pathways"] as? [String] == ["A", "B"] && steering["current"] as? String == "A")
        #expect(steering["serverUri"] as? String == "steer.json?<redacted>")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        let mismatch = try #require(diagnostics.first { $0["code"] as? String == "target-duration-mismatch" })
        #expect(mismatch["playlist"] as? Int == 1)
        #expect((mismatch["related"] as? [[String: Any]])?.first?["playlist"] as? Int == 0)
        #expect(diagnostics.allSatisfy { !(($0["message"] as? String) ?? "").contains("SECRET") })
    }

    final class Output: Sendable {
        private let collected = Lock<[UInt8]>([])
        func append(_ chunk: UnsafeRawBufferPointer) { collected.withLock { $0.append(contentsOf: chunk) } }
        var bytes: [UInt8] { collected.withLock { $0 } }
    }
}
