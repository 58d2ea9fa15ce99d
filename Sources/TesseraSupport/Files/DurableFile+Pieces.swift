#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DurableFile {
    /// Appends `pieces` in order with as few system calls as they allow (`writev`, up to 512
    /// pieces a call, short writes continued): a streamed movie's samples written where they lie,
    /// without gathering them into one buffer first.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    public func append(pieces: [ArraySlice<UInt8>]) throws(SupportError) {
        var index = 0
        var skip = 0   // bytes of pieces[index] already written
        while index < pieces.count {
            let batch = pieces[index..<min(pieces.count, index + 512)]
            let written: Int = withPointers(batch, skippingFirst: skip) { vectors in
                var result: Int
                repeat { result = writev(descriptor, vectors, Int32(vectors.count)) } while result < 0 && errno == EINTR
                return result
            }
            guard written >= 0 else { throw Self.unwritable("Writing \(path) failed: \(FileDescriptorIO.lastError).") }
            // Past the pieces written whole (and empty ones); into the one written in part.
            var left = written + skip
            while index < pieces.count, left >= pieces[index].count {
                left -= pieces[index].count
                index += 1
            }
            skip = left
            if written == 0, index < pieces.count {
                throw Self.unwritable("Writing \(path) failed: nothing was written.")
            }
        }
    }

    /// Runs `body` with an `iovec` per piece of `batch` (the first from `skip` bytes on).
    private func withPointers(_ batch: ArraySlice<ArraySlice<UInt8>>, skippingFirst skip: Int, _ body: ([iovec]) -> Int) -> Int {
        var vectors: [iovec] = []
        vectors.reserveCapacity(batch.count)
        func collect(_ rest: ArraySlice<ArraySlice<UInt8>>, first: Bool) -> Int {
            guard let piece = rest.first else { return body(vectors) }
            return piece.withUnsafeBytes { raw in
                let start = first ? skip : 0
                vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress.map { $0 + start }), iov_len: raw.count - start))
                return collect(rest.dropFirst(), first: false)
            }
        }
        return collect(batch, first: true)
    }
}
