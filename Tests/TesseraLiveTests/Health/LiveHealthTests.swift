import Testing
import TesseraLive
import TesseraPlaylist
import TesseraTestSupport

@Suite("Live health: each check from the snapshots, on the caller's clock")
struct LiveHealthTests {
    static func playlist(first: Int = 100, count: Int = 5, control: String = "CAN-BLOCK-RELOAD=YES", parts: Int? = nil, endList: Bool = false) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:\(control)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        if parts != nil { text += "#EXT-X-PART-INF:PART-TARGET=1.0\n" }
        text += (first..<(first + count)).map { "#EXTINF:4.0,\ns\($0).ts\n" }.joined()
        text += (0..<(parts ?? 0)).map { "#EXT-X-PART:DURATION=1.0,URI=\"p\($0).mp4\"\n" }.joined()
        if endList { text += "#EXT-X-ENDLIST\n" }
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure("a media playlist") }
        return media
    }

    static func codes(_ findings: [LiveFinding]) -> [LiveFinding.Code] { findings.map(\.code) }

    @Test("the edge going back is an error; moving on is nothing")
    func regression() throws {
        var health = LiveHealth()
        #expect(health.observe(try Self.playlist(first: 100), at: .zero).isEmpty)
        #expect(health.observe(try Self.playlist(first: 101), at: .seconds(4)).isEmpty)
        let found = health.observe(try Self.playlist(first: 99), at: .seconds(8))
        #expect(Self.codes(found) == [.edgeRegression] && found[0].severity == .error)
    }

    @Test("no new segment for over 1.5 target durations, no new part for over a part target")
    func stagnation() throws {
        var health = LiveHealth()
        _ = health.observe(try Self.playlist(), at: .zero)
        #expect(health.observe(try Self.playlist(), at: .seconds(6)).isEmpty, "6 s is 1.5 target durations: not over")
        #expect(Self.codes(health.observe(try Self.playlist(), at: .seconds(7))) == [.stagnantSegments])
        var parts = LiveHealth()
        _ = parts.observe(try Self.playlist(parts: 2), at: .zero)
        #expect(parts.observe(try Self.playlist(parts: 3), at: .seconds(1)).isEmpty)
        #expect(Self.codes(parts.observe(try Self.playlist(parts: 3), at: .milliseconds(2500))) == [.stagnantParts])
        var ended = LiveHealth()
        _ = ended.observe(try Self.playlist(endList: true), at: .zero)
        #expect(ended.observe(try Self.playlist(endList: true), at: .seconds(60)).isEmpty, "a finished stream does not stagnate")
    }

    @Test("stagnation is found on a timer too, with no snapshot coming (a stalled server holding a blocking request), once a target duration")
    func stagnationOnTimer() throws {
        var health = LiveHealth()
        #expect(health.tick(at: .seconds(10)).isEmpty, "nothing observed yet")
        _ = health.observe(try Self.playlist(parts: 1), at: .zero)
        #expect(health.tick(at: .seconds(1)).isEmpty)
        #expect(Self.codes(health.tick(at: .milliseconds(1500))) == [.stagnantParts])
        #expect(Self.codes(health.tick(at: .seconds(7))) == [.stagnantSegments, .stagnantParts])
        #expect(health.tick(at: .milliseconds(7500)).isEmpty, "within a part target of the last report")
        #expect(Self.codes(health.tick(at: .seconds(8))) == [.stagnantParts], "a part target on, not yet a target duration")
        #expect(Self.codes(health.tick(at: .seconds(11))) == [.stagnantSegments, .stagnantParts])
        _ = health.observe(try Self.playlist(first: 101, parts: 1), at: .seconds(12))
        #expect(health.tick(at: .seconds(13)).isEmpty, "a new segment: moving again")
        var ended = LiveHealth()
        _ = ended.observe(try Self.playlist(endList: true), at: .zero)
        #expect(ended.tick(at: .seconds(60)).isEmpty)
    }

    @Test("declared hold-backs under the spec's minimums, once")
    func holdBack() throws {
        var health = LiveHealth()
        let short = try Self.playlist(control: "CAN-BLOCK-RELOAD=YES,HOLD-BACK=6.0,PART-HOLD-BACK=1.5", parts: 1)
        #expect(Self.codes(health.observe(short, at: .zero)) == [.holdBack, .holdBack])
        #expect(health.observe(try Self.playlist(first: 101, control: "CAN-BLOCK-RELOAD=YES,HOLD-BACK=6.0", parts: 1), at: .seconds(1)).isEmpty)
    }

    @Test("HTTP freshness: an old cached copy, or a max-age over half a target duration on a plain reload")
    func freshness() throws {
        var health = LiveHealth()
        #expect(Self.codes(health.observe(try Self.playlist(), at: .zero, freshness: .init(age: 10, maxAge: nil))) == [.staleResponse])
        #expect(Self.codes(health.observe(try Self.playlist(first: 101), at: .seconds(4), freshness: .init(age: 0, maxAge: 5))) == [.staleResponse])
        #expect(health.observe(try Self.playlist(first: 102), at: .seconds(8), freshness: .init(age: 0, maxAge: 5), blocking: true).isEmpty,
                "blocking responses may be cached long (§6.2.5)")
    }

    @Test("a window under three target durations is at risk")
    func window() throws {
        var health = LiveHealth()
        #expect(Self.codes(health.observe(try Self.playlist(count: 2), at: .zero)) == [.windowRisk])
    }

    @Test("repeated delta recovery and pathway instability")
    func recoveries() {
        var health = LiveHealth()
        #expect(health.deltaRefused(at: .seconds(1)).isEmpty)
        #expect(Self.codes(health.deltaRefused(at: .seconds(2))) == [.deltaRecovery])
        health.deltaMerged()
        #expect(health.deltaRefused(at: .seconds(3)).isEmpty)
        #expect(health.pathwaySwitched(at: .seconds(0), targetDuration: .seconds(4)).isEmpty)
        #expect(health.pathwaySwitched(at: .seconds(10), targetDuration: .seconds(4)).isEmpty)
        #expect(Self.codes(health.pathwaySwitched(at: .seconds(30), targetDuration: .seconds(4))) == [.pathwayInstability])
        #expect(health.pathwaySwitched(at: .seconds(100), targetDuration: .seconds(4)).isEmpty, "older switches age out")
    }

    @Test("docs/DIAGNOSTICS.md lists every live health ID")
    func documented() throws {
        let text = try RepositoryFiles.text("docs/DIAGNOSTICS.md")
        for code in LiveFinding.Code.all { #expect(text.contains("| `\(code)` |"), "\(code)") }
    }
}
