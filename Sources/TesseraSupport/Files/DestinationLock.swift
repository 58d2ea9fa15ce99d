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

/// Admission to a destination: an exclusive `flock` on a hidden lock file beside it, held for the
/// job's life. `flock` locks conflict between open file descriptions, so a second job in the same
/// process is refused exactly like one in another process. The lock file is removed on release;
/// a job that locked a file another job has just removed retries on the fresh one.
public final class DestinationLock {
    private let path: String
    private var descriptor: Int32

    /// Takes the lock for `destination`, or refuses at once when another job holds it.
    /// - Throws: `destination-busy`; `destination-unwritable` when the lock file cannot be made.
    public init(destination: URL, path: String) throws(SupportError) {
        self.path = path
        // Each retry means another job removed the file between our open and our lock; a few
        // in a row means the destination is contended.
        for _ in 0..<16 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw SupportError(.destinationUnwritable, "Cannot create the lock \(path) for \(destination.path): \(String(cString: strerror(errno))).")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let busy = errno == EWOULDBLOCK
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw busy
                    ? SupportError(.destinationBusy, "Another job is writing \(destination.path) (lock \(path) is held).")
                    : SupportError(.destinationUnwritable, "Cannot lock \(path): \(reason).")
            }
            // The holder before us may have removed the file after we opened it.
            var held = stat(), named = stat()
            if fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
        throw SupportError(.destinationBusy, "Other downloads keep taking and releasing \(destination.path); try again.")
    }

    deinit { release() }

    /// Removes the lock file and releases the lock.
    public func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }
}
