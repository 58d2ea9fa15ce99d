import Foundation
import Testing
@testable import TesseraHLS
import TesseraSupport

@Suite("Plain relative URIs joined as text resolve as URLs do")
struct ResourceURLJoinTests {
    static let bases = ["https://cdn.example/vod/video/index.m3u8", "https://cdn.example/vod/video/index.m3u8?token=s3cr3t#f",
                        "http://cdn.example:8080/a//b/index.m3u8", "https://cdn.example/index.m3u8", "HTTPS://CDN.example/Vod/x.m3u8",
                        "https://cdn.example/a/../b/index.m3u8", "https://cdn.example/a/./b/index.m3u8", "https://cdn.example",
                        "https://cdn.example?x=1"]
    static let uris = ["seg_0000001.ts", "sub/dir/seg.ts", "a-b_c~d.m4s", "../up.ts", "./here.ts", "sub/../x.ts", "/root.ts",
                       "seg.ts?sig=1", "seg%20one.ts", "//other.example/x.ts", "https://other.example/x.ts", "..", ".", "a/./b.ts"]

    @Test("where the text join answers, it is the URL's absolute string; where it cannot be sure, it declines")
    func agreesWithURLResolution() throws {
        var joined = 0
        for base in Self.bases {
            let baseURL = try #require(URL(string: base))
            for uri in Self.uris {
                guard let directory = ResourceURL.plainDirectory(of: baseURL),
                      let text = ResourceURL.joinedPlain(uri, directory: directory) else { continue }
                let resolved = try ResourceURL.resolve(uri, against: baseURL, what: "Segment").absoluteString
                #expect(text == resolved, "\(uri) against \(base)")
                joined += 1
            }
        }
        #expect(joined >= 12, "the common shapes take the fast path")
        #expect(ResourceURL.plainDirectory(of: URL(string: "https://cdn.example/a/../b/index.m3u8")!) == nil)
        #expect(ResourceURL.plainDirectory(of: URL(string: "https://cdn.example")!) == nil)
        #expect(ResourceURL.joinedPlain("../up.ts", directory: "https://cdn.example/a/") == nil)
    }

    @Test("a thousand segments that differ only in their query get numbered names in one pass each")
    func queryOnlyNames() throws {
        var layout = PackageFileLayout()
        let base = try #require(URL(string: "https://cdn.example/v/index.m3u8"))
        var names: Set<String> = []
        for index in 0..<1_000 {
            let url = try ResourceURL.resolve("chunk.ts?n=\(index)", against: base, what: "Segment")
            let file = try layout.cover(nil, of: url, in: "video", what: "Segment").file
            names.insert(layout.path(ofFile: file).value)
        }
        #expect(names.count == 1_000)
        #expect(names.contains("video/chunk.ts") && names.contains("video/chunk-2.ts") && names.contains("video/chunk-1000.ts"))
    }

    @Test("one source file named by a plain name, a plain path from a parent folder and an absolute URL is one local file; equal names elsewhere are other files")
    func sourceKeys() throws {
        var layout = PackageFileLayout()
        let inner = layout.sourceFolder("https://cdn.example/a/sub/")
        let byName = try layout.cover(nil, key: .init(folder: inner, name: "x.ts"), name: "x.ts", in: "video", what: "by name")
        let byPath = try layout.cover(nil, key: layout.key(of: "https://cdn.example/a/" + "sub/x.ts"), name: "x.ts", in: "audio", what: "by path")
        let byURL = try layout.cover(nil, of: try #require(URL(string: "https://cdn.example/a/sub/x.ts")), in: "audio", what: "by URL")
        let elsewhere = try layout.cover(nil, of: try #require(URL(string: "https://cdn.example/b/sub/x.ts")), in: "video", what: "elsewhere")
        let queried = try layout.cover(nil, of: try #require(URL(string: "https://cdn.example/a/sub/x.ts?p=/q")), in: "video", what: "queried")
        #expect(layout.path(ofFile: byName.file).value == "video/x.ts" && byName.coverage == .fetch(unlisted: nil, listed: nil))
        #expect(byPath.file == byName.file && byPath.coverage == .covered)
        #expect(byURL.file == byName.file && byURL.coverage == .covered)
        #expect(layout.path(ofFile: elsewhere.file).value == "video/x-2.ts" && elsewhere.coverage == .fetch(unlisted: nil, listed: nil))
        #expect(layout.path(ofFile: queried.file).value == "video/x-3.ts" && queried.coverage == .fetch(unlisted: nil, listed: nil))
        #expect(layout.localURI(ofFile: byName.file, from: "video") == "x.ts" && layout.localURI(ofFile: byName.file, from: "audio") == "../video/x.ts")
        #expect(layout.key(of: "https://cdn.example/a/sub/x.ts?p=/q") == .init(folder: inner, name: "x.ts?p=/q"))
        #expect(PackageFileOwners(exceptions: layout.otherOwners)["video/x.ts"] == "video")
    }

    @Test("local names: the last non-empty segment in safe characters, its last 96, no leading dot, `file` when nothing is left")
    func localNames() {
        let long = String(repeating: "a", count: 100) + "-tail.ts"
        let cases: [(String, String)] = [
            ("/v/seg_001.ts", "seg_001.ts"), ("/v/dir/", "dir"), ("/v//", "v"), ("", "file"), ("/", "file"),
            ("/v/..hidden.ts", "hidden.ts"), ("/v/...", "file"), ("/v/caf\u{E9} 1.ts", "caf___1.ts"), ("seg:1?.ts", "seg_1_.ts"),
            ("/v/" + long, String(long.suffix(96))), ("/v/." + String(repeating: "b", count: 92) + ".ts", String(repeating: "b", count: 92) + ".ts"),
        ]
        for (path, name) in cases {
            #expect(PackageFileLayout.localName(lastSegmentOf: path) == name, "\(path)")
        }
    }
}
