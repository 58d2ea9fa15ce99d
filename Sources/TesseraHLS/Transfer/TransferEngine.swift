import TesseraHTTP
import TesseraSupport

/// The one transfer engine every job stands on: planned fetches in (finite for VOD and
/// packages, open-ended for a recorder), the resource processor for up to `parallelism` of them
/// within a byte window, and the results handed to an output strictly in order, with a
/// checkpoint chance after every fetch. A new job is a new planner and, at most, a new output.
package struct TransferEngine: Sendable {
    package let processor: ResourceProcessor
    /// Requests in flight, and fetches held waiting for their turn to be written (1…32).
    package let parallelism: Int
    /// Bytes of fetches in flight or waiting, beyond which no new request starts (one always runs).
    package let maximumBufferedBytes: UInt64

    /// An engine running `processor` for up to `parallelism` fetches within `maximumBufferedBytes`.
    package init(processor: ResourceProcessor, parallelism: Int, maximumBufferedBytes: UInt64) {
        self.processor = processor
        self.parallelism = parallelism
        self.maximumBufferedBytes = maximumBufferedBytes
    }

    /// Moves every fetch of `input` into `output`; resources are numbered from `firstIndex`
    /// (resources restored from a checkpoint come before it). `progress` runs after each fetch
    /// is written, on the lane that wrote it (what it does next — a recording's eviction, a
    /// snapshot's staging — may block on the disk too), never beside another write.
    /// - Throws: the first failure of the input, a fetch or the output; `cancelled` when the task is.
    package func run<Input: AsyncSequence>(_ input: Input, firstIndex: Int = 0, into output: some TransferOutput,
                                   progress: @escaping () -> Void = {}) async throws(HLSError)
        where Input.Element == PlannedFetch, Input.Failure == HLSError {
        let numbered = NumberedFetches(base: input, next: firstIndex)
        let processor = self.processor
        let lane = BlockingLane(label: "tessera.transfer.write")
        // The kept buffers go when the transfer ends: what the output does next (a movie's mux)
        // needs the memory more.
        defer { processor.budget.releaseSpares() }
        async let _ = processor.deadlines.watch()    // cancelled when the transfer ends
        try await OrderedTransfer.run(numbered, parallelism: min(32, max(1, parallelism)), maximumBytes: maximumBufferedBytes,
                                      size: { $0.fetch.expectedBytes },
                                      measure: { $0.reduce(0) { $0 + $1.fetchedBytes } },
                                      // A stream's segments are estimated from its own (a video
                                      // segment weighs 60 audio ones), its maps from its maps.
                                      sizeClass: { [$0.fetch.stream.rawValue, $0.fetch.purpose.rawValue] },
                                      work: { numbered async throws(HLSError) in
                                          try await processor.process(numbered.fetch, firstIndex: numbered.firstIndex)
                                      },
                                      consume: { (resources: consuming [FetchedResource]) async throws(HLSError) in
                                          // Written on the transfer's lane: its writes and fsyncs
                                          // never hold up the cooperative pool. The output and
                                          // the bodies move there and back, one owner at a time.
                                          let handoff = Handoff((output as any TransferOutput, consume resources, progress))
                                          try await lane.run { () throws(HLSError) in
                                              var (output, pending, progress) = handoff.take()
                                              // Each written body's memory goes back to the budget for the next.
                                              pending.reverse()
                                              while let resource = pending.popLast() {
                                                  try output.write(resource)
                                                  processor.budget.recycle((consume resource).takeBody())
                                              }
                                              try output.checkpointIfDue(force: false)
                                              progress()
                                          }
                                      })
        if Task.isCancelled { throw HLSError(.cancelled, "The transfer was cancelled.") }
    }
}

extension TransferEngine {
    /// Moves every fetch the channel hands over into `output` until it finishes (an open-ended
    /// job: the planner sends, the engine takes, the channel's policy bounds what waits).
    package func run(_ channel: BoundedChannel<PlannedFetch>, firstIndex: Int = 0, into output: some TransferOutput,
                     progress: @escaping () -> Void = {}) async throws(HLSError) {
        try await run(ChannelInput(channel: channel), firstIndex: firstIndex, into: output, progress: progress)
    }
}

/// A planned fetch with the transfer index of its first resource.
struct NumberedFetch: Sendable {
    let fetch: PlannedFetch
    let firstIndex: Int
}

/// Numbers the fetches of an input as they are pulled.
struct NumberedFetches<Base: AsyncSequence>: AsyncSequence where Base.Element == PlannedFetch, Base.Failure == HLSError {
    typealias Element = NumberedFetch
    typealias Failure = HLSError
    let base: Base
    let next: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = HLSError
        var base: Base.AsyncIterator
        var next: Int
        mutating func next() async throws(HLSError) -> NumberedFetch? { try await next(isolation: nil) }
        mutating func next(isolation actor: isolated (any Actor)?) async throws(HLSError) -> NumberedFetch? {
            guard let fetch = try await base.next(isolation: actor) else { return nil }
            defer { next += fetch.resources.count }
            return NumberedFetch(fetch: fetch, firstIndex: next)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), next: next) }
}

extension NumberedFetches.AsyncIterator: ImmediateIterator where Base.AsyncIterator: ImmediateIterator {
    mutating func nextImmediately() throws(HLSError) -> ImmediatePull<NumberedFetch> {
        switch try base.nextImmediately() {
        case .element(let fetch):
            defer { next += fetch.resources.count }
            return .element(NumberedFetch(fetch: fetch, firstIndex: next))
        case .end: return .end
        case .wouldWait: return .wouldWait
        }
    }
}

extension TransferEngine {
    /// LL-HLS part staging for a live job, fetching through this engine's processor (its joins
    /// spilled beside the output); `fellBack` hears each segment whose staged parts could not be
    /// promoted, and why.
    package func stagingParts(_ options: PartStaging,
                              fellBack: @escaping @Sendable (StreamIdentity, UInt64, String) -> Void) -> PartStager {
        PartStager(options: options, processor: processor, fellBack: fellBack)
    }
}
