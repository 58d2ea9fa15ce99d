import Foundation
import Testing
import TesseraHLS
import TesseraTestSupport

@Suite("Package readers fuzz replay")
struct PackageFuzzReplayTests {
    @Test("every saved input keeps the invariants FuzzPackage checks")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzPackage")
        #expect(!inputs.isEmpty)
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("video"), withIntermediateDirectories: true)
        var verifiedOne = false
        // As in the fuzz target: rejecting an input is fine; an accepted one keeps its invariants.
        for input in inputs where !input.isEmpty {
            let bytes = Array(input.dropFirst())
            switch input[0] % 3 {
            case 0:
                if let entries = PackageChecksums.parse(String(decoding: bytes, as: UTF8.self)) {
                    #expect(entries.allSatisfy { $0.sha256.utf8.count == 64 && !$0.path.isEmpty })
                    #expect(PackageChecksums.parse(PackageChecksums.text(entries))?.count == entries.count)
                }
            case 1:
                // Rejecting a corpus input is expected; an accepted manifest must read back as itself.
                if let manifest = try? PackageManifest.decode(bytes) { #expect(try PackageManifest.decode(manifest.encoded()) == manifest) }
            default:
                let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
                let names = [PackageManifest.fileName, PackageChecksums.fileName, PackageManifest.entryName, "video/index.m3u8"]
                for (name, part) in zip(names, parts) { try Data(part).write(to: folder.url.appendingPathComponent(name)) }
                let verification = PackageStore(folder: folder.url).verify()
                #expect(verification.isVerified == verification.findings.isEmpty)
                verifiedOne = verifiedOne || !verification.findings.isEmpty
            }
        }
        #expect(verifiedOne, "the saved packages (without their media) have findings")
    }
}
