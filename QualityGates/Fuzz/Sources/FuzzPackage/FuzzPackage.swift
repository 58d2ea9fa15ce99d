import Foundation
import TesseraHLS

/// What `verify-package` reads from a package someone else made, fed hostile bytes. The first
/// byte picks: 0 `manifest-sha256.txt`, 1 `manifest.json`, anything else a whole package folder
/// (the rest split at NUL bytes into `manifest.json`, `manifest-sha256.txt`, `master.m3u8` and
/// `video/index.m3u8`) verified by `PackageStore`. Rejection is expected; a crash, a hang or a
/// broken invariant is what the fuzzer looks for.
let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-fuzz-package-\(getpid())")
    // A fuzzing process without a temporary folder cannot run this target at all.
    guard (try? FileManager.default.createDirectory(at: url.appendingPathComponent("video"), withIntermediateDirectories: true)) != nil else { fatalError("temporary folder") }
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPackage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        if let entries = PackageChecksums.parse(String(decoding: bytes, as: UTF8.self)) {
            precondition(entries.allSatisfy { $0.sha256.utf8.count == 64 && !$0.path.isEmpty }, "an accepted line breaks the format")
            let again = PackageChecksums.parse(PackageChecksums.text(entries))
            precondition(again?.count == entries.count, "the checksums text does not read back")
        }
    case 1:
        // Rejecting hostile bytes is expected; an accepted manifest must read back as itself.
        if let manifest = try? PackageManifest.decode(bytes) {
            precondition((try? PackageManifest.decode(manifest.encoded())) == manifest, "a manifest does not survive its own encoding")
        }
    default:
        let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
        let names = [PackageManifest.fileName, PackageChecksums.fileName, PackageManifest.entryName, "video/index.m3u8"]
        for (name, part) in zip(names, parts) {
            // A write that fails leaves the file as it was: the verification below still runs.
            try? Data(part).write(to: folder.appendingPathComponent(name))
        }
        let verification = PackageStore(folder: folder).verify()
        precondition(verification.isVerified == verification.findings.isEmpty, "verified with findings")
    }
    return 0
}
