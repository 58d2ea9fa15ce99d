import Foundation
import Testing
import TesseraHLS
import TesseraPlaylist

@Suite("Content Steering: manifest, clones and the state machine (no sockets, no clock)")
struct SteeringStateTests {
    static let url = URL(string: "https://cdn-a.example/vod/master.m3u8")!

    static func multivariant(_ extra: String = "") throws -> MultivariantPlaylist {
        let text = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example/manifest.json?session=1",PATHWAY-ID="A"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",STABLE-RENDITION-ID="en",URI="a/en.m3u8?sig=1"
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aud",PATHWAY-ID="A",STABLE-VARIANT-ID="hd"
        a/hd.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aud",PATHWAY-ID="A",STABLE-VARIANT-ID="sd"
        a/sd.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aud",PATHWAY-ID="B",STABLE-VARIANT-ID="hd"
        https://cdn-b.example/vod/hd.m3u8
        \(extra)
        """
        guard case .multivariant(let playlist) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure() }
        return playlist
    }

    static func state(penalty: Duration = .seconds(120)) throws -> SteeringState {
        let playlist = try multivariant()
        return try SteeringState(multivariant: playlist, url: url, steering: playlist.contentSteering!, penalty: penalty)
    }

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a manifest parses; every rule it breaks is invalid-steering-manifest", arguments: [
        ("{\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\"]}", "no VERSION"),
        ("{\"VERSION\":2,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\"]}", "VERSION 2"),
        ("{\"VERSION\":1,\"TTL\":0,\"PATHWAY-PRIORITY\":[\"A\"]}", "TTL"),
        ("{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[]}", "PATHWAY-PRIORITY"),
        ("{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\",\"A\"]}", "repeats"),
        ("{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A B\"]}", "invalid pathway ID"),
        ("{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\"],\"PATHWAY-CLONES\":[{\"ID\":\"C\"}]}", "PATHWAY-CLONES"),
        ("{not json", "not a JSON object"),
        ("[1,2]", "not a JSON object"),
    ])
    func invalid(text: String, message: String) {
        #expect { try SteeringManifest.parse(Self.json(text)) } throws: { error in
            guard let error = error as? HLSError else { return false }
            return error.code == .invalidSteeringManifest && error.message.contains(message)
        }
    }

    @Test("a valid manifest with every field")
    func valid() throws {
        let manifest = try SteeringManifest.parse(Self.json("""
        {"VERSION":1,"TTL":10.5,"RELOAD-URI":"next.json","PATHWAY-PRIORITY":["B","A"],"UNKNOWN":true,
         "PATHWAY-CLONES":[{"BASE-ID":"A","ID":"C","URI-REPLACEMENT":{"HOST":"cdn-c.example","PARAMS":{"t":"1"},
           "PER-VARIANT-URIS":{"hd":"https://x.example/hd.m3u8"},"PER-RENDITION-URIS":{"en":"https://x.example/en.m3u8"}}}]}
        """))
        #expect(manifest.ttl == 10.5 && manifest.reloadURI == "next.json" && manifest.pathwayPriority == ["B", "A"])
        #expect(manifest.clones == [PathwayClone(baseId: "A", id: "C", host: "cdn-c.example", params: ["t": "1"],
                                                 perVariantURIs: ["hd": "https://x.example/hd.m3u8"], perRenditionURIs: ["en": "https://x.example/en.m3u8"])])
    }

    @Test("the initial pathway is PATHWAY-ID, else \".\", else the first listed; requests carry _HLS_pathway and _HLS_throughput")
    func initial() throws {
        var state = try Self.state()
        #expect(state.current == "A" && state.priority == ["A", "B"] && state.ttl == .seconds(300) && state.nextRequest == .zero)
        #expect(state.request(throughput: 5_000_000) == .url(URL(string: "https://steer.example/manifest.json?session=1&_HLS_pathway=A&_HLS_throughput=5000000")!))
        _ = state.received(Self.json("{\"VERSION\":1,\"TTL\":60,\"RELOAD-URI\":\"/next.json?session=1&_HLS_pathway=old\",\"PATHWAY-PRIORITY\":[\"B\",\"A\"]}"),
                           from: URL(string: "https://steer2.example/manifest.json")!, at: .seconds(1))
        #expect(state.request(throughput: nil) == .url(URL(string: "https://steer2.example/next.json?session=1&_HLS_pathway=B")!))
        var noID = try Self.multivariant()
        noID.contentSteering?.pathwayId = nil
        #expect(try SteeringState(multivariant: noID, url: Self.url, steering: noID.contentSteering!).current == "A", "no \".\" variants: the first listed")
        let inline = ContentSteering(serverURI: "data:application/json,{}")
        #expect(try SteeringState(multivariant: noID, url: Self.url, steering: inline).request(throughput: 1) == .inline("data:application/json,{}"))
    }

    @Test("a manifest switches to its first known, unpenalised pathway with variants; a malformed one keeps everything")
    func priority() throws {
        var state = try Self.state()
        let events = state.received(Self.json("{\"VERSION\":1,\"TTL\":30,\"PATHWAY-PRIORITY\":[\"Z\",\"B\",\"A\"]}"), from: Self.url, at: .seconds(10))
        #expect(state.current == "B" && state.ttl == .seconds(30) && state.nextRequest == .seconds(40))
        #expect(events.contains(.switched(from: "A", to: "B", reason: "the manifest's priority")))
        let rejected = state.received(Self.json("{\"VERSION\":1}"), from: Self.url, at: .seconds(40))
        #expect(state.current == "B" && state.priority == ["Z", "B", "A"] && state.nextRequest == .seconds(70))
        guard case .rejected = rejected.first else { Issue.record("\(rejected)"); return }
    }

    @Test("a manifest's TTL sets the next request within 1 s and a day, however small or large", arguments: [
        ("0.0004", Duration.seconds(1)), ("2.5", .milliseconds(2500)), ("86400", .seconds(86_400)),
        ("90000", .seconds(86_400)), ("3" + String(repeating: "2", count: 90), .seconds(86_400)), ("1e308", .seconds(86_400)),
    ])
    func ttlBounds(ttl: String, wait: Duration) throws {
        var state = try Self.state()
        _ = state.received(Self.json("{\"VERSION\":1,\"TTL\":\(ttl),\"PATHWAY-PRIORITY\":[\"A\"]}"), from: Self.url, at: .seconds(10))
        #expect(state.manifestsApplied == 1 && state.ttl == wait && state.nextRequest == .seconds(10) + wait)
    }

    @Test("a RELOAD-URI that would downgrade to HTTP is refused with an event; the rest of the manifest applies")
    func reloadRefused() throws {
        var state = try Self.state()
        let events = state.received(Self.json("{\"VERSION\":1,\"TTL\":60,\"RELOAD-URI\":\"http://steer.example/next.json\",\"PATHWAY-PRIORITY\":[\"B\"]}"),
                                    from: URL(string: "https://steer.example/manifest.json")!, at: .zero)
        #expect(events.contains { if case .reloadRefused(let reason) = $0 { reason.contains("downgrade") } else { false } })
        #expect(state.current == "B" && state.request(throughput: nil) == .url(URL(string: "https://steer.example/manifest.json?session=1&_HLS_pathway=B")!))
    }

    @Test("410 ends steering for the session; 429 waits Retry-After; other failures wait the TTL")
    func failures() throws {
        var state = try Self.state()
        #expect(state.failed(status: 429, retryAfter: .seconds(7), at: .seconds(1)) == [.throttled(wait: 7)])
        #expect(state.nextRequest == .seconds(8))
        #expect(state.failed(status: 503, retryAfter: nil, at: .seconds(8)) == [.failed(reason: "HTTP 503", retryIn: 300)])
        #expect(state.nextRequest == .seconds(308))
        #expect(state.failed(status: nil, retryAfter: nil, at: .seconds(308)) == [.failed(reason: "no answer", retryIn: 300)])
        #expect(state.failed(status: 410, retryAfter: nil, at: .seconds(400)) == [.ended])
        #expect(state.isEnded && state.request(throughput: nil) == nil && state.current == "A")
    }

    @Test("a failed pathway is penalised, the next one taken, and readmitted when the penalty expires")
    func penalties() throws {
        var state = try Self.state(penalty: .seconds(120))
        let failed = state.pathwayFailed("A", at: .seconds(5))
        #expect(failed == [.penalized(pathway: "A", until: 125), .switched(from: "A", to: "B", reason: "pathway A failed")])
        #expect(state.nextPenaltyExpiry == .seconds(125) && state.advance(to: .seconds(100)).isEmpty)
        #expect(state.pathwayFailed("B", at: .seconds(10)).last == .exhausted(current: "B"))
        let readmitted = state.advance(to: .seconds(125))
        #expect(readmitted == [.readmitted(pathway: "A"), .switched(from: "B", to: "A", reason: "penalty expired")])
    }

    @Test("clones copy the base pathway with HOST and sorted PARAMS, per-ID URIs whole, fresh group IDs; idempotent")
    func clones() throws {
        let playlist = try Self.multivariant()
        let clone = PathwayClone(baseId: "A", id: "C", host: "cdn-c.example", params: ["z": "9", "sig": "2"],
                                 perVariantURIs: ["sd": "https://x.example/sd.m3u8"])
        let cloned = try #require(PathwayCloning.apply(clone, to: playlist, base: Self.url))
        let copies = cloned.variants.filter { $0.pathwayId == "C" }
        #expect(copies.map(\.uri) == ["https://cdn-c.example/vod/a/hd.m3u8?sig=2&z=9", "https://x.example/sd.m3u8"])
        #expect(copies.allSatisfy { $0.audio == "aud-C" } && copies.map(\.stableVariantId) == ["hd", "sd"])
        let audio = cloned.renditions.filter { $0.groupId == "aud-C" }
        #expect(audio.map(\.uri) == ["https://cdn-c.example/vod/a/en.m3u8?sig=2&z=9"], "sig replaced, z added, sorted")
        #expect(PathwayCloning.apply(clone, to: cloned, base: Self.url) == nil, "the same ID again: skipped")
        #expect(PathwayCloning.apply(PathwayClone(baseId: "Q", id: "D"), to: playlist, base: Self.url) == nil)
        let perRendition = PathwayClone(baseId: "C", id: "D", perRenditionURIs: ["en": "https://y.example/en.m3u8"])
        let twice = try #require(PathwayCloning.apply(perRendition, to: cloned, base: Self.url), "a clone of a clone")
        #expect(twice.renditions.filter { $0.groupId == "aud-C-D" }.map(\.uri) == ["https://y.example/en.m3u8"])
    }

    @Test("a manifest's clones are made before its priority is read, once across reloads")
    func manifestClones() throws {
        var state = try Self.state()
        let text = "{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"C\",\"A\"],\"PATHWAY-CLONES\":[{\"BASE-ID\":\"B\",\"ID\":\"C\",\"URI-REPLACEMENT\":{\"HOST\":\"cdn-c.example\"}}]}"
        let first = state.received(Self.json(text), from: Self.url, at: .zero)
        #expect(state.current == "C" && first.first == .applied(priority: ["C", "A"], ttl: 300, clonesAdded: ["C"]))
        let again = state.received(Self.json(text), from: Self.url, at: .seconds(300))
        #expect(again.first == .applied(priority: ["C", "A"], ttl: 300, clonesAdded: []))
        #expect(state.multivariant.variants.filter { $0.pathwayId == "C" }.map(\.uri) == ["https://cdn-c.example/vod/hd.m3u8"])
    }
}
