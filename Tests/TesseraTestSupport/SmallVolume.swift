import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted for one test, to be filled at a moment the test chooses: a real full
/// volume (the next write that needs a page fails with ENOSPC), not a simulated one. Mounting
/// needs root (CAP_SYS_ADMIN); `canMount` says whether this process has it. Unmounted (lazily,
/// so a file still open cannot keep it) and removed on deinit.
public final class SmallVolume: @unchecked Sendable {   // immutable but for the filler, which `fill`/`drain` own
    /// Its mount point.
    public let url: URL
    private let filler: URL

    /// Whether this process may mount a volume (it runs as root).
    public static var canMount: Bool { geteuid() == 0 }

    /// Mounts a tmpfs of `megabytes` at a fresh folder under the system temporary folder.
    public init(megabytes: Int = 8) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-volume-\(UUID().uuidString)")
        filler = url.appendingPathComponent(".filler")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard mount("tmpfs", url.path, "tmpfs", UInt(MS_NOSUID | MS_NODEV), "size=\(megabytes)m,mode=0700") == 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(url.path)
            throw VolumeError(description: "A tmpfs cannot be mounted at \(url.path): \(reason).")
        }
    }

    deinit {
        umount2(url.path, Int32(MNT_DETACH))
        rmdir(url.path)
    }

    /// Fills the volume: writes a file until no page is left (a short write or ENOSPC).
    public func fill() {
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }   // nothing could be created: the volume is full already
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0xA5, count: 1 << 16)
        var size = chunk.count
        while size > 0 {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, size) }
            if written < size { size /= 2 }   // full at this size: the rest of the last page in smaller writes
        }
    }

    /// Frees what `fill` took.
    public func drain() {
        unlink(filler.path)
    }

    /// Why a volume could not be mounted.
    public struct VolumeError: Error, CustomStringConvertible {
        public let description: String
    }
}
