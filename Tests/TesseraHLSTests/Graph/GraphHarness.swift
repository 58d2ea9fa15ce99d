import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraPlaylist

/// A presentation served from memory: a multivariant playlist at https://cdn.example/master.m3u8
/// and children at paths beside it; unstubbed paths answer 404.
struct GraphHarness {
    static let root = URL(string: "https://cdn.example/master.m3u8")!
    let mock = MockTransport(unstubbed: .status(404))
    let entry: URL

    init(_ multivariant: String, _ children: [String: String] = [:], root: URL = GraphHarness.root) {
        entry = root
        mock.stub(root, .ok(Array(multivariant.utf8)))
        for (path, text) in children { mock.stub(URL(string: path, relativeTo: root)!.absoluteURL, .ok(Array(text.utf8))) }
    }

    static func url(_ path: String) -> URL { URL(string: path, relativeTo: root)!.absoluteURL }

    func load(_ configure: (inout PresentationGraphLoader.Options) -> Void = { _ in }) async throws(HLSError) -> PresentationGraph {
        var options = PresentationGraphLoader.Options()
        configure(&options)
        return try await PresentationGraphLoader(client: HLSClient(transport: mock, clock: ImmediateClock()), options: options).load(entry)
    }

    /// A media playlist: `count` segments of `duration` seconds with `ext`, the header lines given,
    /// ENDLIST unless `live`.
    static func media(target: Int = 6, count: Int = 3, ext: String = "ts", header: String = "", perSegment: String = "",
                      live: Bool = false, version: Int = 6) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:\(target)\n" + header
        for index in 0..<count { text += perSegment + "#EXTINF:\(target),\ns\(index).\(ext)\n" }
        return live ? text : text + "#EXT-X-ENDLIST\n"
    }

    /// A multivariant playlist of `variants` lines (each an EXT-X-STREAM-INF attribute list and URI).
    static func multivariant(_ lines: String...) -> String {
        "#EXTM3U\n#EXT-X-VERSION:6\n" + lines.joined(separator: "\n") + "\n"
    }
}
