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
import TesseraSupport

/// The hidden folder beside an output where resource bodies too large for memory wait for their
/// turn: emptied when a job starts (a crashed run may have left bodies in it) and removed when
/// it ends.
package enum SpillFolder {
    /// Empties or creates the folder at `path` (never following a symlink planted there).
    /// - Throws: `destination-unwritable`.
    package static func prepare(_ path: String) throws(HLSError) {
        FolderTree.remove(at: path)
        guard mkdir(path, 0o700) == 0, FolderHandle(path: path) != nil else {
            throw HLSError(.destinationUnwritable, "Cannot create the spill folder \(path): \(FileDescriptorIO.lastError).")
        }
    }
}
