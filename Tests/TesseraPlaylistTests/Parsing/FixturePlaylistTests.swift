import Foundation
import Testing
import TesseraPlaylist
import TesseraTestSupport

@Suite("Fixture playlists")
struct FixturePlaylistTests {
    /// Test arguments cannot throw, so a broken manifest gives an empty list here;
    /// `everyFixtureIsListed` turns that into a failure instead of zero silent cases.
    static let playlists = (try? FixtureStore.playlistPaths()) ?? []

    @Test("the argument list holds every fixture playlist of the manifest")
    func everyFixtureIsListed() throws {
        let expected = try FixtureStore.playlistPaths()
        #expect(!expected.isEmpty)
        #expect(Self.playlists == expected)
    }

    @Test("every fixture playlist parses without an error diagnostic", arguments: playlists)
    func parses(path: String) throws {
        let parsed = try PlaylistParser().parse(try FixtureStore.bytes(path))
        #expect(parsed.diagnostics.filter { $0.severity == .error } == [], "\(parsed.diagnostics)")
    }

    @Test("the multivariant fixture has its variants, audio group and subtitles")
    func multivariant() throws {
        let parsed = try PlaylistParser().parse(try FixtureStore.bytes("e_multivariant/master.m3u8"))
        guard case .multivariant(let playlist) = parsed.playlist else { Issue.record("not multivariant"); return }
        #expect(playlist.variants.map(\.uri) == ["lo/index.m3u8", "hi/index.m3u8"])
        #expect(playlist.variants.allSatisfy { $0.audio == "group_aud" && $0.subtitles == "subs" })
        #expect(playlist.renditions.contains { $0.type == .audio && $0.isDefault && $0.language == "en" })
        #expect(playlist.renditions.contains { $0.type == .subtitles })
    }
}
