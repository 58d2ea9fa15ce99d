#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The free space of a folder's volume, as the capacity policy reads it (statvfs `f_bavail`).
enum FreeSpace {
    /// Bytes available to this process on the volume of `folder`, or nil when it cannot be read.
    static func available(_ folder: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }
}
