#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bounds every media job shares — single-file downloads, packages, recordings: requests in
/// flight, bytes held, the size of a resource and of the whole job, coalescing, checkpoint
/// spacing, free space and per-resource deadlines. Every default is a bound. Retries, timeouts
/// and per-purpose limits come from the job's `HLSClient`.
public struct TransferBounds: Sendable {
    /// Requests in flight, and resources held waiting for their turn to be written (1…32).
    /// Default 6.
    public var parallelism = 6
    /// Bytes of resources in flight or waiting to be written, beyond which no new request
    /// starts (one always runs); also the most resource bytes held in memory at once, beyond
    /// which bodies go to spill files beside the destination. Bounds memory whatever the
    /// origin sends. Default 24 MiB.
    public var maximumBufferedBytes: UInt64 = 24 << 20
    /// A resource larger than this is kept in a spill file rather than memory. Default 8 MiB.
    public var maximumInMemoryResourceBytes: UInt64 = 8 << 20
    /// The largest resource (segment or initialization section). Default 256 MiB.
    public var maximumResourceBytes: UInt64 = 256 << 20
    /// The largest output. Default 1 TiB.
    public var maximumJobBytes: UInt64 = 1 << 40
    /// The largest request made by coalescing contiguous byte ranges. Default 8 MiB.
    public var maximumCoalescedBytes: UInt64 = 8 << 20
    /// Bytes written between durable checkpoints (each costs an fsync). Default 8 MiB.
    public var checkpointBytes: UInt64 = 8 << 20
    /// Free-space handling on the destination volume. Default `.required`.
    public var capacity: CapacityPolicy = .required
    /// The free space of the destination's volume, for the capacity policy: `statvfs` by
    /// default; a caller (a test) may give another probe.
    public var freeSpace: @Sendable (String) -> UInt64? = FreeSpace.available
    /// How long each resource of known size may take (above libcurl, on the client's
    /// clock); nil for none. Default 30 s + its size at 16 KiB/s.
    public var resourceDeadline: ResourceDeadline? = ResourceDeadline()
    /// A budget shared with other jobs (the channels of one recorder) that this job's memory
    /// budget — `maximumBufferedBytes`, its share — draws on; nil: a budget of its own.
    package var sharedBudget: MemoryBudget?

    /// The defaults.
    public init() {}

    /// Byte budgets known from a plan, checked before any media request.
    /// - Throws: `budget-exceeded`.
    func checkBudgets(knownBytes: UInt64?, largestRange: UInt64?) throws(HLSError) {
        if let known = knownBytes, known > maximumJobBytes {
            throw HLSError(.budgetExceeded, "The plan holds \(known) bytes, over the job's budget of \(maximumJobBytes).")
        }
        if let largest = largestRange, largest > maximumResourceBytes {
            throw HLSError(.budgetExceeded, "A resource of the plan is a byte range of \(largest) bytes, over the budget of \(maximumResourceBytes) per resource.")
        }
    }

    /// Under `.required`, a plan of known size must fit the volume of `destination`.
    /// - Throws: `insufficient-space`.
    func checkCapacity(knownBytes: UInt64?, restoredBytes done: UInt64, destination: URL) throws(HLSError) {
        guard capacity == .required, let known = knownBytes,
              let free = freeSpace(destination.deletingLastPathComponent().path) else { return }
        guard free >= known - min(done, known) else {
            throw HLSError(.insufficientSpace, "\(destination.path) needs about \(known - min(done, known)) more bytes; its volume has \(free) free.")
        }
    }

    /// The transfer engine of a job: the processor within these bounds, `preparation` done to
    /// each resource.
    package func engine(fetcher: ResourceFetcher, resolver: any TransferURLResolver, keys: KeyCache, preparation: ContainerPreparation,
                spillFolder: String, clock: any Clock<Duration>) -> TransferEngine {
        var settings = ResourceProcessor.Settings()
        settings.maximumResourceBytes = maximumResourceBytes
        settings.maximumInMemoryResourceBytes = maximumInMemoryResourceBytes
        settings.deadline = resourceDeadline
        settings.preparation = preparation
        let processor = ResourceProcessor(fetcher: fetcher, resolver: resolver, keys: keys, budget: MemoryBudget(limit: maximumBufferedBytes, parent: sharedBudget),
                                          settings: settings, spillFolder: spillFolder, clock: clock)
        return TransferEngine(processor: processor, parallelism: parallelism, maximumBufferedBytes: maximumBufferedBytes)
    }
}
