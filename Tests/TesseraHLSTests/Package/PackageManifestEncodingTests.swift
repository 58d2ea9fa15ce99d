import Foundation
import Testing
import TesseraHLS

@Suite("manifest.json: its files written straight into the text, byte for byte what JSONEncoder makes")
struct PackageManifestEncodingTests {
    /// What `JSONEncoder` makes of the whole manifest, as `encoded()` made it before.
    static func reference(_ manifest: PackageManifest) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(manifest)) + [0x0A]
    }

    static let hex = String(repeating: "0123456789abcdef", count: 4)

    @Test("empty, one file and many; with and without a track; tricky text in paths and tracks; gaps, evictions and another schema version")
    func identical() throws {
        let tricky = ["a\"b", "back\\slash", "sl/ash", "tab\tnew\nline\r", "\u{01}\u{08}\u{0C}\u{1F}\u{7F}", "é中😀", "\u{2028}\u{2029}", ""]
        let track = PackageTrack(id: "video", role: .video, playlist: "video/index.m3u8", language: "en", bandwidth: 1_128,
                                 provenance: "the \"best\" variant", segments: 1_008, duration: 4_032.5)
        var manifests: [PackageManifest] = [
            PackageManifest(kind: .vod, tracks: [], files: []),
            PackageManifest(kind: .vod, tracks: [track], files: [.init(path: "master.m3u8", size: 58, sha256: Self.hex, role: .playlist, track: nil)]),
            PackageManifest(kind: .recording, tracks: [track],
                            files: tricky.enumerated().map { index, text in
                                .init(path: "video/\(text)\(index).ts", size: UInt64(index) * 1_000_003, sha256: Self.hex, role: .media,
                                      track: index % 2 == 0 ? text : nil)
                            } + (0..<1_000).map { .init(path: "video/s\($0).ts", size: UInt64.max - UInt64($0), sha256: Self.hex, role: .media, track: "video") },
                            gaps: [.init(track: "video", mediaSequence: 7, duration: 4.004, reason: "EXT-X-GAP"),
                                   .init(track: "files", mediaSequence: 8, duration: 2, reason: "\"files\" : [\n\n  ]", estimated: true)],
                            evictions: [.init(track: "video", firstMediaSequence: 0, lastMediaSequence: 99)]),
        ]
        // A manifest read back from another schema version keeps it.
        var text = String(decoding: try manifests[1].encoded(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 7")
        manifests.append(try PackageManifest.decode(Array(text.utf8)))
        for manifest in manifests {
            let encoded = try manifest.encoded()
            #expect(encoded == (try Self.reference(manifest)), "\(manifest.files.count) files")
            #expect(try PackageManifest.decode(encoded) == manifest)
        }
        #expect(try manifests[3].encoded() == Array(text.utf8), "the other version's text as it was read")
    }
}
