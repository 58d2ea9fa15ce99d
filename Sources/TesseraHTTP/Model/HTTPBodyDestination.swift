import Synchronization
import TesseraSupport

/// Memory a response body is copied into directly, as it arrives (`HTTPBody.deliver(into:)`): the
/// transfer appends each chunk of the body here instead of handing it to the reader as an array
/// of its own, which saves a copy and a wake-up of the reader per chunk.
///
/// Its owner gives it an array (whose capacity it keeps) and takes the bytes back with
/// `takeBytes()` once `deliver` returned. A destination made `writingTo` a file writes each
/// chunk there instead, from the transfer's own buffer on the transfer's thread (no copy in
/// memory at all), until its owner finishes or closes it. Everything in it sits behind its own
/// lock, so an owner that looks while a transfer appends sees a consistent value, never a torn
/// one.
public final class HTTPBodyDestination: Sendable {
    private struct State {
        var bytes: [UInt8]
        var pauseAt: Int
        var leftover: [UInt8]?
        var file: BodyFileSink?

        /// The bytes held, or written to the file.
        var count: Int { file?.written ?? bytes.count }
    }

    private let state: Mutex<State>
    /// The most bytes it takes in all: a chunk that would pass it is not taken (`full`).
    public let capacity: Int

    /// A destination holding `bytes` (kept, capacity and all), taking at most `capacity` bytes;
    /// `pauseAt` starts at `capacity`.
    public init(bytes: [UInt8] = [], capacity: Int) {
        state = Mutex(State(bytes: bytes, pauseAt: capacity, leftover: nil))
        self.capacity = capacity
        writesFile = false
    }

    /// A destination writing what it is given to `file` (see the type's note), in whole pages
    /// at page boundaries when `pageAligned`, else each chunk whole as it comes: it takes every
    /// chunk until `finishFile()` or `closeFile()`; `count` is the bytes written.
    package init(writingTo file: DurableFileAppender, pageAligned: Bool = true) {
        state = Mutex(State(bytes: [], pauseAt: .max, leftover: nil, file: BodyFileSink(file, pageAligned: pageAligned)))
        capacity = .max
        writesFile = true
    }

    /// Whether it writes to a file: the transfer then goes on giving it chunks after `deliver`
    /// returned `paused`, while its owner is away (nothing is queued for the owner to copy).
    let writesFile: Bool

    /// The bytes delivered so far (a shared copy: `takeBytes()` moves them out instead).
    public var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// How many bytes it holds (written, for a destination writing to a file).
    public var count: Int { state.withLock { $0.count } }

    /// Where `deliver` returns (`paused`) once the bytes reach it, so the owner can count them
    /// (default: `capacity`).
    public var pauseAt: Int {
        get { state.withLock { $0.pauseAt } }
        set { state.withLock { $0.pauseAt = newValue } }
    }

    /// A chunk a source without direct delivery read and could not fit; its owner takes it first.
    public internal(set) var leftover: [UInt8]? {
        get { state.withLock { $0.leftover } }
        set { state.withLock { $0.leftover = newValue } }
    }

    /// Moves the bytes out, leaving it empty (the owner's, once `deliver` returned).
    public func takeBytes() -> [UInt8] {
        state.withLock { state in
            defer { state.bytes = [] }
            return state.bytes
        }
    }

    /// Appends `chunk` when it fits the capacity; false (nothing taken) when it does not.
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        state.withLock { state in
            if state.file != nil { return state.file!.write(chunk) }
            guard state.bytes.count + chunk.count <= capacity else { return false }
            state.bytes.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))
            return true
        }
    }

    /// Appends `chunk` when it fits the capacity; false (nothing taken) when it does not.
    func append(_ chunk: [UInt8]) -> Bool {
        chunk.withUnsafeBytes { append($0) }
    }

    /// Whether the bytes reached `pauseAt`.
    var reachedPause: Bool { state.withLock { $0.count >= $0.pauseAt || $0.file?.failure != nil } }

    /// The first write to the file that failed (the owner throws it; the bytes after it are
    /// dropped). A pause is reached at once when a write fails, to wake the owner.
    package var fileFailure: SupportError? { state.withLock { $0.file?.failure } }

    /// Writes the file's last partial page and closes it: the body ended.
    /// - Throws: the first write failure, or the last write's.
    package func finishFile() throws(SupportError) {
        let failure = state.withLock { state -> SupportError? in
            do throws(SupportError) { try state.file?.finish() } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Takes nothing more into the file: once this returns, no write to it is in progress or
    /// will start, so the file may be closed. Chunks offered after it do not fit (`full`).
    package func closeFile() { state.withLock { $0.file?.close() } }
}
