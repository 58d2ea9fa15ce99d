import Foundation
import Testing
@testable import TesseraHLS
import TesseraSupport
import TesseraTestSupport

@Suite("Package store: verification of membership, digests, links and playlist closure")
struct PackageStoreTests {
    static func packaged() async throws -> PackageHarness { try await PackageHarness.packaged() }

    static func codes(_ harness: PackageHarness) -> [PackageFinding.Code] {
        PackageStore(folder: harness.destination).verify().findings.map(\.code)
    }

    @Test("a package as written verifies: every file hashed, every playlist reachable and closed")
    func verified() async throws {
        let harness = try await Self.packaged()
        let verification = PackageStore(folder: harness.destination).verify()
        #expect(verification.findings == [])
        #expect(verification.isVerified && verification.manifest?.tracks.count == 4)
        #expect(Set(verification.playlists.keys) == ["master.m3u8", "video/index.m3u8", "audio-1/index.m3u8",
                                                     "subtitles-1/index.m3u8", "subtitles-2/index.m3u8"])
        #expect(verification.fileCount == (verification.manifest?.files.count ?? 0) + 2)
    }

    @Test("a tampered byte, a missing file and an extra file are each found")
    func tampering() async throws {
        let harness = try await Self.packaged()
        let root = harness.destination
        var bytes = try Data(contentsOf: root.appendingPathComponent("video/seg_001.ts"))
        bytes[100] ^= 0x01
        try bytes.write(to: root.appendingPathComponent("video/seg_001.ts"))
        #expect(Self.codes(harness) == [.digestMismatch, .checksums])
        try FileManager.default.removeItem(at: root.appendingPathComponent("audio-1/seg_002.ts"))
        #expect(Self.codes(harness).contains(.missingFile))
        try Data("x".utf8).write(to: root.appendingPathComponent("video/extra.ts"))
        let findings = PackageStore(folder: root).verify().findings
        #expect(findings.contains(PackageFinding(.extraFile, path: "video/extra.ts", "It is in the package; manifest.json does not list it.")))
        #expect(findings.contains { $0.code == .checksums && $0.path == "video/extra.ts" })
    }

    @Test("a planted symlink is refused, and so is a package folder that is a link")
    func links() async throws {
        let harness = try await Self.packaged()
        try FileManager.default.createSymbolicLink(atPath: harness.destination.path + "/video/seg_009.ts", withDestinationPath: "/etc/passwd")
        #expect(Self.codes(harness).contains(.notRegularFile))
        let link = harness.folder.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: harness.destination)
        #expect(PackageStore(folder: link).verify().findings.map(\.code) == [.unreadable])
    }

    @Test("a playlist pointing outside the package is found, whatever form the escape takes",
          arguments: [("../../x.ts", PackageFinding.Code.uriOutside), ("/etc/passwd", .uriOutside), ("http://example.com/seg.ts", .uriOutside),
                      ("..%2F..%2Fetc%2Fpasswd", .uriOutside), ("seg_000.ts?x=1", .uriOutside), ("nowhere.ts", .uriMissing),
                      ("../x.ts", .uriMissing)])
    func escapes(_ uri: String, _ expected: PackageFinding.Code) async throws {
        let harness = try await Self.packaged()
        let path = harness.destination.appendingPathComponent("video/index.m3u8")
        let text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "\nseg_002.ts", with: "\n\(uri)")
        try text.write(to: path, atomically: false, encoding: .utf8)
        let findings = PackageStore(folder: harness.destination).verify().findings
        #expect(findings.contains { $0.code == expected && $0.path == "video/index.m3u8" }, "\(findings)")
    }

    @Test("an EXT-X-GAP segment must name a file of the package too: players that do not honour the tag fetch it")
    func gapWithoutFile() async throws {
        let harness = try await Self.packaged()
        let path = harness.destination.appendingPathComponent("video/index.m3u8")
        let text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "\nseg_002.ts", with: "\n#EXT-X-GAP\n2.seg")
            .replacingOccurrences(of: "#EXT-X-GAP\n#EXTINF", with: "#EXTINF")
        try text.write(to: path, atomically: false, encoding: .utf8)
        let findings = PackageStore(folder: harness.destination).verify().findings
        let finding = try #require(findings.first { $0.code == .uriMissing })
        #expect(finding.path == "video/index.m3u8")
        #expect(finding.description.contains("video/2.seg, which is not a file of the package (an EXT-X-GAP segment: players that do not honour the tag"))
    }

    @Test("--media: a segment cut short with its manifest and checksums made to agree passes the file checks and fails the media check")
    func invalidMedia() async throws {
        let harness = try await Self.packaged()
        let root = harness.destination
        #expect(PackageStore(folder: root).verify(.media).findings == [], "a package as written is valid media throughout")
        let path = "video/seg_001.ts"
        let short = Array(try Data(contentsOf: root.appendingPathComponent(path))).dropLast(500)
        try Data(short).write(to: root.appendingPathComponent(path))
        // A manifest and checksums that vouch for the cut file (a package written cut short).
        let manifestPath = root.appendingPathComponent(PackageManifest.fileName)
        let manifest = try PackageManifest.decode(Array(try Data(contentsOf: manifestPath)))
        let files = manifest.files.map { file in
            file.path == path ? PackageManifest.File(path: path, size: UInt64(short.count), sha256: SHA256Hasher.hash(Array(short)).hex, role: .media, track: file.track) : file
        }
        let vouching = PackageManifest(kind: manifest.kind, tracks: manifest.tracks, files: files, gaps: manifest.gaps, evictions: manifest.evictions)
        let bytes = try vouching.encoded()
        try Data(bytes).write(to: manifestPath)
        let sums = PackageChecksums.text((files.map { ($0.path, $0.sha256) } + [(PackageManifest.fileName, SHA256Hasher.hash(bytes).hex)]))
        try Data(sums.utf8).write(to: root.appendingPathComponent(PackageChecksums.fileName))
        #expect(PackageStore(folder: root).verify().findings == [], "sizes and digests agree")
        let findings = PackageStore(folder: root).verify(.media).findings
        #expect(findings.map(\.code) == [.invalidMedia] && findings.first?.path == path)
        #expect(findings.first?.message.hasPrefix("It is not valid MPEG-TS: error ts-partial-packet") == true, "\(findings)")
    }

    @Test("a missing or foreign manifest is a finding, not a crash")
    func manifest() async throws {
        let harness = try await Self.packaged()
        let path = harness.destination.appendingPathComponent("manifest.json")
        try Data("{\"schema\":\"other\",\"schemaVersion\":9}".utf8).write(to: path)
        #expect(Self.codes(harness).contains(.manifest))
        try FileManager.default.removeItem(at: path)
        #expect(Self.codes(harness).contains(.manifest))
    }
}
