#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS

/// `tessera verify-package <dir> [--media] [--json]`: exit 0 verified, 1 with findings, 2 usage.
struct VerifyPackageCommand: Sendable {
    let folder: URL
    let json: Bool
    let scope: PackageStore.Scope

    static let usage = "tessera verify-package <dir> [--media] [--json]"

    static let help = CommandHelp(
        name: "verify-package",
        synopsis: usage,
        summary: "Checks an offline package with no network: its manifest schema, exact membership (manifest.json and manifest-sha256.txt list every file, nothing missing, nothing extra, no links), every size and SHA-256, and that every URI of every playlist reachable from master.m3u8 (EXT-X-GAP segments' too) is relative and names a file inside the package. With --media, every media file is validated too, as tessera validate does. Exit 0 verified, 1 with findings, 2 on usage errors.",
        flags: [("--media", "validate every media file too (MPEG-TS, fMP4, WebVTT): one cut short or malformed is an invalid-media finding; default sizes and digests only"),
                ("--json", "print one JSON document (verified, files, bytes, findings); default one line per finding")],
        example: "tessera verify-package movie --json")

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> VerifyPackageCommand {
        let json = arguments.contains("--json")
        let positional = arguments.filter { $0 != "--json" && $0 != "--media" }
        if let unknown = positional.first(where: { $0.hasPrefix("-") }) {
            throw CommandLineArguments.UsageError(message: "unknown option \(unknown)")
        }
        guard positional.count == 1 else { throw CommandLineArguments.UsageError(message: "verify-package needs exactly one folder") }
        return VerifyPackageCommand(folder: URL(fileURLWithPath: positional[0]), json: json, scope: arguments.contains("--media") ? .media : .files)
    }

    private struct Document: Encodable {
        struct Finding: Encodable {
            let code: String
            let path: String?
            let message: String
        }
        let verified: Bool
        let files: Int
        let bytes: UInt64
        let tracks: [String]
        let findings: [Finding]
    }

    func run() async -> Int32 {
        let verification = PackageStore(folder: folder).verify(scope)
        if json {
            let document = Document(verified: verification.isVerified, files: verification.fileCount, bytes: verification.byteCount,
                                    tracks: verification.manifest?.tracks.map(\.id) ?? [],
                                    findings: verification.findings.map { .init(code: $0.code.rawValue, path: $0.path, message: $0.message) })
            Terminal.line(JSONText.of(document))
        } else if verification.isVerified {
            Terminal.line("verified \(folder.path): \(verification.fileCount) files, \(ProgressDisplay.bytes(verification.byteCount)), "
                + "tracks \(verification.manifest?.tracks.map(\.id).joined(separator: ", ") ?? "")" + (scope == .media ? ", every media file valid" : ""))
        } else {
            for finding in verification.findings { Terminal.line(finding.description) }
            Terminal.line("\(folder.path): \(verification.findings.count) finding\(verification.findings.count == 1 ? "" : "s")", to: .standardError)
        }
        return verification.isVerified ? 0 : 1
    }
}
