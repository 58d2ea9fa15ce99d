import TesseraHTTP
import TesseraSupport

/// Gathers one response body for the resource processor: in memory while the resource is small
/// and the job's memory budget allows, else in a spill file (what is already in memory moves
/// there too), never past the resource's byte budget. One per attempt: a retried body starts a
/// new collector and the old one's reservation and spill file go with it.
package final class BodyCollector {
    private let budget: MemoryBudget
    private let reservation: MemoryReservation
    private let inMemoryLimit: UInt64
    private let maximumBytes: UInt64
    private let spillFolder: String
    private var memory: [UInt8] = []
    /// Bytes of the budget held for `memory` (its capacity is kept to this).
    private var reserved: UInt64 = 0
    private var spill: (file: SpillFile, handle: DurableFile)?
    /// Bytes gathered.
    private(set) var count: UInt64 = 0
    /// The transfer's count of bytes received, told of each chunk.
    private let received: ReceivedBytes?

    /// A collector for a body of `expected` bytes (when the request says), spilling anything
    /// over `inMemoryLimit` or the budget to `spillFolder`, failing past `maximumBytes`.
    package init(expected: UInt64?, budget: MemoryBudget, inMemoryLimit: UInt64, maximumBytes: UInt64, spillFolder: String,
                 received: ReceivedBytes? = nil) {
        self.budget = budget
        self.received = received
        reservation = MemoryReservation(budget)
        self.inMemoryLimit = inMemoryLimit
        self.maximumBytes = maximumBytes
        self.spillFolder = spillFolder
        if let expected, expected <= inMemoryLimit, let buffer = reservation.buffer(reserving: expected) {
            reserved = expected
            memory = buffer
        }
    }

    /// Gathers the whole of `body`: copied by the transfer straight into the memory reserved for
    /// it while it fits (a megabyte at a time, counted as it comes), then chunk by chunk — what
    /// does not fit, or a body whose size was not known, grows the memory or spills.
    /// - Throws: as `append`; the transfer's failures.
    package func receive(_ body: HTTPBody) async throws(HTTPError) {
        if spill == nil, reserved > UInt64(memory.count) {
            let destination = HTTPBodyDestination(bytes: memory, capacity: Int(min(reserved, maximumBytes)))
            memory = []
            var delivery = HTTPBodyDelivery.paused
            // Full to the byte: whether the body ended (or runs on) is the chunks' to say.
            while delivery == .paused, destination.count < destination.capacity {
                let before = destination.count
                destination.pauseAt = min(destination.capacity, before + Self.deliveryStep)
                delivery = try await body.deliver(into: destination)
                received?.add(destination.count - before)
            }
            memory = destination.takeBytes()
            count = UInt64(memory.count)
            if let leftover = destination.leftover { try append(leftover) }
            if delivery == .ended { return }
        }
        for try await chunk in body { try append(chunk) }
    }

    /// The most bytes a body is delivered straight into memory before they are counted (how
    /// often a job's progress hears of a resource in flight).
    private static let deliveryStep = 1 << 20

    /// Adds the next chunk.
    /// - Throws: `body-too-large` past the budget; a `file` error when the spill file fails.
    package func append(_ chunk: [UInt8]) throws(HTTPError) {
        let total = count + UInt64(chunk.count)
        guard total <= maximumBytes else {
            throw HTTPError(.tooLarge, code: .bodyTooLarge, "The response body is larger than the \(maximumBytes)-byte budget of a resource.")
        }
        count = total
        received?.add(chunk.count)
        if let spill {
            try HTTPError.file { () throws(SupportError) in try spill.handle.append(chunk) }
            return
        }
        let needed = UInt64(memory.count + chunk.count)
        if needed > reserved, needed <= inMemoryLimit {
            // Grow in doubling steps, reserving from the budget before the memory is taken.
            let target = min(inMemoryLimit, max(needed, reserved * 2, 256 << 10))
            if memory.isEmpty, let buffer = reservation.buffer(reserving: target - reserved) {
                reserved = target
                memory = buffer
            } else if !memory.isEmpty, reservation.grow(by: target - reserved) {
                reserved = target
                memory.reserveCapacity(Int(target))
            }
        }
        if needed <= reserved {
            memory.append(contentsOf: chunk)
            return
        }
        try moveToSpill()
        try HTTPError.file { () throws(SupportError) in try spill?.handle.append(chunk) }
    }

    private func moveToSpill() throws(HTTPError) {
        let file: SpillFile
        do throws(HLSError) { file = try SpillFile(in: spillFolder) } catch {
            throw HTTPError(.file, code: .destinationUnwritable, error.message)
        }
        let handle: DurableFile
        do throws(HLSError) { handle = try file.openHandle() } catch {
            throw HTTPError(.file, code: .destinationUnwritable, error.message)
        }
        try HTTPError.file { () throws(SupportError) in try handle.append(memory) }
        memory = []
        reserved = 0
        reservation.releaseAll()
        spill = (file, handle)
    }

    /// The body gathered.
    package func finish() -> ResourceBody {
        if let spill {
            spill.handle.close()
            self.spill = nil    // the body owns the file now: it goes when the body does
            return .spilled(spill.file)
        }
        // Moved out, not shared: the body's owner decrypts and rewrites it in place.
        let bytes = memory
        memory = []
        return .memory(bytes, reservation)
    }
}
