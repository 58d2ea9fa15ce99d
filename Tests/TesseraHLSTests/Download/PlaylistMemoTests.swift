import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraTestSupport

@Suite("Playlists read once per decision")
struct PlaylistMemoTests {
    @Test("a package of a media playlist's URL fetches that playlist once: the entry is the variant's own")
    func packageEntryReadOnce() async throws {
        let harness = try PackageHarness()
        let summary = try await harness.job("/a_ts_vod/index.m3u8").plan()
        #expect(summary.tracks.count == 1)
        #expect(harness.origin.attempts("/a_ts_vod/index.m3u8") == 1)
    }

    @Test("a movie's choice and a whole-file plan on one memo fetch the playlist once; without it, twice")
    func twoPlansOneRead() async throws {
        let path = "/a_ts_vod/index.m3u8"
        for shares in [true, false] {
            let harness = try PackageHarness()
            let client = HLSClient(transport: harness.transport)
            let movie = MovieDownload(url: harness.origin.url(path), destination: harness.folder.url.appendingPathComponent("movie.ts"),
                                      client: client, options: PackageDownload.Options(), writing: MovieDownload.Writing())
            let file = SingleFileDownload(playlistURL: harness.origin.url(path), destination: harness.folder.url.appendingPathComponent("whole.ts"),
                                          client: client)
            let memo = shares ? PlaylistMemo() : nil
            let chosen = try await movie.chosen(memo: memo)
            let whole = try await file.planned(memo: memo)
            #expect(movie.isWholeTransportStream(chosen) && file.summary(of: whole).segments > 0)
            let playlists = Set(harness.origin.log.map(\.path).filter { $0.hasSuffix(".m3u8") })
            #expect(playlists.contains(path))
            for playlist in playlists where shares {
                #expect(harness.origin.attempts(playlist) == 1, "\(playlist)")
            }
            if !shares { #expect(harness.origin.attempts(path) == 2) }
        }
    }

    @Test("a second plan of a multivariant presentation on the memo fetches nothing: the multivariant and chosen playlists are read once")
    func multivariantReadOnce() async throws {
        let harness = try PackageHarness()
        let path = "/e_multivariant/master.m3u8"
        let movie = MovieDownload(url: harness.origin.url(path), destination: harness.folder.url.appendingPathComponent("movie.mp4"),
                                  client: HLSClient(transport: harness.transport), options: PackageDownload.Options(), writing: MovieDownload.Writing())
        let memo = PlaylistMemo()
        let first = try movie.planned(try await movie.chosen(memo: memo))
        let fetched = harness.origin.log.count
        let second = try movie.planned(try await movie.chosen(memo: memo))
        #expect(harness.origin.log.count == fetched, "nothing fetched again")
        #expect(fetched >= 3, "the multivariant playlist, the variant's and its audio rendition's")
        #expect(movie.summary(of: first).tracks.count == movie.summary(of: second).tracks.count)
        #expect(Set(harness.origin.log.map(\.path)).allSatisfy { harness.origin.attempts($0) == 1 })
    }

    @Test("the memo keeps playlists only, within its count and bytes; the first answer for a URL stays")
    func bounds() throws {
        #expect(PlaylistMemo.keeps(.mediaPlaylist) && PlaylistMemo.keeps(.multivariantPlaylist))
        #expect(!PlaylistMemo.keeps(.key) && !PlaylistMemo.keeps(.segment) && !PlaylistMemo.keeps(.liveReload))
        let memo = PlaylistMemo()
        let url = try #require(URL(string: "https://origin.example/a.m3u8"))
        let other = try #require(URL(string: "https://cdn.example/a.m3u8"))
        memo.keep(Array("#EXTM3U\n".utf8), for: url, answeredBy: other)
        memo.keep(Array("#EXTM3U\n#changed\n".utf8), for: url, answeredBy: url)
        #expect(memo.recalled(url)?.bytes == Array("#EXTM3U\n".utf8) && memo.recalled(url)?.url == other)
        for index in 1..<PlaylistMemo.maximumEntries + 10 {
            memo.keep([0x23], for: try #require(URL(string: "https://origin.example/\(index).m3u8")), answeredBy: url)
        }
        #expect(memo.recalled(try #require(URL(string: "https://origin.example/\(PlaylistMemo.maximumEntries - 1).m3u8"))) != nil)
        #expect(memo.recalled(try #require(URL(string: "https://origin.example/\(PlaylistMemo.maximumEntries).m3u8"))) == nil)
        let large = PlaylistMemo()
        let big = [UInt8](repeating: 0x23, count: PlaylistMemo.maximumBytes / 2 + 1)
        large.keep(big, for: url, answeredBy: url)
        large.keep(big, for: other, answeredBy: other)
        #expect(large.recalled(url) != nil && large.recalled(other) == nil, "past the byte bound a playlist is fetched again")
    }
}
