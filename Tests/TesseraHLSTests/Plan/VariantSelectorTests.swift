import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist

@Suite("VariantSelector (no sockets)")
struct VariantSelectorTests {
    static let url = URL(string: "https://cdn.example/master.m3u8")!

    static func multivariant(_ body: String) throws -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try PlaylistParser().parse(Array("#EXTM3U\n\(body)\n".utf8)).playlist else {
            preconditionFailure("not multivariant")
        }
        return playlist
    }

    static let ladder = """
    #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
    360.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720
    720.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1920x1080
    1080.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=200000
    audio-only.m3u8
    """

    @Test("best takes the highest bandwidth (ties: more pixels), lowest the lowest, caps filter", arguments: [
        (VariantPreference.best, "1080.m3u8"), (.lowest, "audio-only.m3u8"), (.maximumHeight(720), "720.m3u8"),
        (.maximumHeight(400), "360.m3u8"), (.maximumBandwidth(1_000_000), "360.m3u8"),
    ])
    func choice(preference: VariantPreference, uri: String) throws {
        let chosen = try VariantSelector.choose(preference, in: Self.multivariant(Self.ladder), url: Self.url)
        #expect(chosen.uri == uri)
    }

    @Test("nothing matching is no-matching-variant; audio from a separate rendition is refused")
    func refusals() throws {
        #expect(throws: HLSError.self) { try VariantSelector.choose(.maximumHeight(100), in: Self.multivariant(Self.ladder), url: Self.url) }
        let separate = try Self.multivariant("""
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="a"
        v.m3u8
        """)
        do {
            _ = try VariantSelector.choose(.best, in: separate, url: Self.url)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .unsupported && error.message.contains("separate rendition"))
        }
        #expect(VariantSelector.describe(try Self.multivariant(Self.ladder).variants[1]) == "1280x720, 3000.0 kb/s")
    }
}
