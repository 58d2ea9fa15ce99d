#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

extension DurableFile {
    /// The block of the file's filesystem (what `insertAtFront` takes a multiple of), or 0 when
    /// it cannot be read.
    public var filesystemBlock: Int { Int(tessera_filesystem_block(descriptor)) }

    /// Puts `bytes` in front of what the file holds without copying it: a hole opened at the
    /// start (`FALLOC_FL_INSERT_RANGE`) and the bytes written into it — a movie's header placed
    /// before its body once the body is known. `bytes.count` must be a non-zero multiple of
    /// `filesystemBlock`. Returns false, the file untouched, where the filesystem cannot insert
    /// (tmpfs, filesystems without it: EOPNOTSUPP, ENOSYS, EINVAL; or not whole blocks, or an
    /// empty file): the caller copies instead.
    /// - Throws: `destination-unwritable` when the insert fails otherwise (no space, an I/O
    ///   error), or the bytes cannot be written into the hole (the file then starts with that many
    ///   zero bytes: the caller discards it).
    public func insertAtFront(_ bytes: [UInt8]) throws(SupportError) -> Bool {
        let block = filesystemBlock
        guard !bytes.isEmpty, block > 0, bytes.count % block == 0, size > 0 else { return false }
        let failure = tessera_insert_range(descriptor, 0, Int64(bytes.count))
        guard failure == 0 else {
            guard [EOPNOTSUPP, ENOSYS, EINVAL].contains(failure) else {
                throw Self.unwritable("Putting \(bytes.count) bytes in front of \(path) failed: \(String(cString: strerror(failure))).")
            }
            return false
        }
        try write(bytes, at: 0)
        return true
    }
}
