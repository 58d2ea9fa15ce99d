import Foundation
import Testing
@testable import TesseraHLS
import TesseraSupport

@Suite("A track's files: each URI found in planning order or, asked otherwise, in the layout")
struct TrackFilesTests {
    /// A track of `uris` in folder `video`, every one placed as the planner places them.
    private static func planned(_ uris: [String]) throws -> (TrackFiles, PackageFileLayout) {
        var layout = PackageFileLayout()
        var files = TrackFiles(id: "video", baseURL: try #require(URL(string: "https://cdn.example/v/index.m3u8")), layout: &layout)
        for uri in uris {
            let (key, name) = try files.key(of: uri, in: &layout, what: uri)
            files.place(uri, file: try layout.cover(nil, key: key, name: name, in: "video", what: uri).file)
        }
        return (files, layout)
    }

    @Test("a pass in order, one skipping a map, one out of order and one naming what no track planned all get the planner's files")
    func lookups() throws {
        let uris = ["init.mp4", "a.m4s", "https://cdn.example/v/b.m4s", "sub/c.m4s", "https://other.example/d.m4s?token=s", "../up/e.m4s"]
        let (files, layout) = try Self.planned(uris)
        let expected = uris.map { files.file(of: $0, in: layout) }
        #expect(expected.allSatisfy { $0 != nil } && Set(expected).count == uris.count)
        var inOrder = TrackFiles.Cursor()
        #expect(uris.map { inOrder.file(of: $0, in: files, layout: layout) } == expected)
        var skipping = TrackFiles.Cursor()
        #expect(uris.dropFirst().map { skipping.file(of: $0, in: files, layout: layout) } == Array(expected.dropFirst()))
        var backwards = TrackFiles.Cursor()
        #expect(uris.reversed().map { backwards.file(of: $0, in: files, layout: layout) } == expected.reversed())
        var strays = TrackFiles.Cursor()
        #expect(strays.file(of: "never.m4s", in: files, layout: layout) == nil)
        #expect(strays.file(of: "https://elsewhere.example/x.m4s", in: files, layout: layout) == nil)
        #expect(strays.file(of: "init.mp4", in: files, layout: layout) == expected[0], "a miss does not move the cursor past the next URI")
    }

    @Test("one file named three ways — a plain name, the same file by absolute URL, by a path from the parent folder — is one file")
    func spellings() throws {
        let (files, layout) = try Self.planned(["x.ts", "https://cdn.example/v/x.ts", "../v/x.ts"])
        #expect(Set(files.placements.map(\.file)).count == 1)
        #expect(layout.localURI(ofFile: files.placements[0].file, from: "video") == "x.ts")
    }
}
