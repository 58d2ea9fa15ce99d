/// Memory a response body is copied into directly, as it arrives (`HTTPBody.deliver(into:)`): the
/// transfer appends each chunk of the body here instead of handing it to the reader as an array
/// of its own, which saves a copy and a wake-up of the reader per chunk.
///
/// Its owner gives it `bytes` (whose capacity it keeps) and takes them back after `deliver`
/// returns; in between only the transfer touches it, under the transfer's lock.
public final class HTTPBodyDestination: @unchecked Sendable {
    // @unchecked: the owner and the transfer hand it over through the transfer's lock and the
    // reader's continuation — one side at a time — and never share it otherwise.

    /// The bytes so far: the owner's to read and take once `deliver` returned.
    public var bytes: [UInt8]
    /// The most bytes it takes in all: a chunk that would pass it is not taken (`full`).
    public let capacity: Int
    /// Where `deliver` returns (`paused`) once the bytes reach it, so the owner can count them
    /// (default: `capacity`).
    public var pauseAt: Int
    /// A chunk a source without direct delivery read and could not fit; its owner takes it first.
    public var leftover: [UInt8]?

    /// A destination holding `bytes` (kept, capacity and all), taking at most `capacity` bytes.
    public init(bytes: [UInt8] = [], capacity: Int) {
        self.bytes = bytes
        self.capacity = capacity
        pauseAt = capacity
    }

    /// Appends `chunk` when it fits the capacity; false (nothing taken) when it does not.
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count + chunk.count <= capacity else { return false }
        bytes.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))
        return true
    }

    /// Appends `chunk` when it fits the capacity; false (nothing taken) when it does not.
    func append(_ chunk: [UInt8]) -> Bool {
        chunk.withUnsafeBytes { append($0) }
    }

    /// Whether the bytes reached `pauseAt`.
    var reachedPause: Bool { bytes.count >= pauseAt }
}
