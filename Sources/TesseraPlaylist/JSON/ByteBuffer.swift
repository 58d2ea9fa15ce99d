#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte buffer appended with `memcpy` (`Array.append(contentsOf:)` took a third of the JSON
/// writer's time) that hands its contents to a sink whenever it holds `flushAt` bytes, so output
/// of any size streams through bounded memory. One owner; the storage never leaves it.
final class ByteBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private let flushAt: Int
    private let sink: (UnsafeRawBufferPointer) -> Void

    init(capacity: Int, flushAt: Int = 1 << 20, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.capacity = max(64, capacity)
        self.flushAt = flushAt
        self.sink = sink
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    func append(_ bytes: UnsafeRawPointer, count length: Int) {
        if _slowPath(count + length > capacity) { grow(toHold: length) }
        memcpy(storage + count, bytes, length)
        count += length
        if _slowPath(count >= flushAt) { flush() }
    }

    /// Hands everything buffered to the sink.
    func flush() {
        guard count > 0 else { return }
        sink(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if _slowPath(count == capacity) { grow(toHold: 1) }
        storage[count] = byte
        count += 1
    }

    /// Grows the storage to hold `extra` more bytes: rare (one flush-sized buffer holds almost
    /// every document's pieces), so kept out of the appends' inlined fast path.
    @inline(never)
    private func grow(toHold extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }
}
