#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// The concurrent half of a transfer, independent of any plan type: resolve a planned fetch's
/// URL at fetch time, fetch it through the pipeline with its purpose (retries, mid-body
/// refetch), in memory or a spill file, within the resource's byte budget and its deadline;
/// check the response's size against its byte range; split it into its resources; decrypt each
/// in place with the key in force; prepare it for its container. Runs in parallel; the ordered
/// half is a `TransferOutput`.
package struct ResourceProcessor: Sendable {
    /// The processor's bounds and choices.
    package struct Settings: Sendable {
        /// Requests' transfer limits (the purpose sets the rest).
        package var limits = TransferLimits()
        /// The largest resource (segment, initialization section, part).
        package var maximumResourceBytes: UInt64 = 256 << 20
        /// A resource larger than this goes to a spill file instead of memory.
        package var maximumInMemoryResourceBytes: UInt64 = 8 << 20
        /// How long a resource may take, from its size; nil for no deadline above libcurl's.
        package var deadline: ResourceDeadline? = ResourceDeadline()
        /// What is done to decrypted resources.
        package var preparation: ContainerPreparation = .asFetched

        /// The defaults.
        package init() {}
    }

    package let fetcher: ResourceFetcher
    package let resolver: any TransferURLResolver
    package let keys: KeyCache
    package let budget: MemoryBudget
    package let settings: Settings
    package let spillFolder: String
    package let clock: any Clock<Duration>
    private let timing: ElapsedClock
    /// The deadlines of the resources in flight; `TransferEngine` runs its watch.
    package let deadlines: DeadlineWatch
    /// The network bytes received, bodies in flight included (for progress).
    package let received = ReceivedBytes()

    /// A processor fetching through `fetcher`, resolving with `resolver`, decrypting with keys
    /// from `keys`, holding bodies within `budget` (spilling to `spillFolder`), deadlines on `clock`.
    package init(fetcher: ResourceFetcher, resolver: any TransferURLResolver, keys: KeyCache, budget: MemoryBudget,
                 settings: Settings, spillFolder: String, clock: any Clock<Duration>) {
        self.fetcher = fetcher
        self.resolver = resolver
        self.keys = keys
        self.budget = budget
        self.settings = settings
        self.spillFolder = spillFolder
        self.clock = clock
        timing = ElapsedClock(clock)
        deadlines = DeadlineWatch(deadline: settings.deadline, clock: clock, cancel: { [fetcher] in fetcher.cancel(tag: $0) })
    }

    /// Fetches and prepares the resources of `fetch`, numbered from `firstIndex`.
    /// - Throws: `fetch-failed`, `http-status`, `budget-exceeded`, `decrypt-failed`,
    ///   `malformed-media`, `bad-key`, `cancelled`, `destination-unwritable` (a spill file).
    package func process(_ fetch: PlannedFetch, firstIndex: Int) async throws(HLSError) -> [FetchedResource] {
        if let staged = fetch.staged, fetch.resources.count == 1, fetch.resources[0].encryption == nil, let body = await staged.take() {
            let location = try await resolver.location(of: fetch.uri, in: fetch.stream)
            let resource = fetch.resources[0]
            return [FetchedResource(index: firstIndex, resource: resource, body: try prepare(body, resource), fetchedBytes: body.count,
                                    source: SourceDigest.of(location.url), validator: nil, pathway: location.pathway, keyFingerprint: nil)]
        }
        // Bytes that are not what they should be — another length than the byte range's, or
        // media cut short — are fetched again, at most `maximumRefetches` times, then refused (a
        // gap where the fetch allows one).
        var refetches = 0
        while true {
            let answer: Answer
            switch try await fetchWithFailover(fetch, firstIndex: firstIndex) {
            case .unavailable(let resources): return resources
            case .answered(let fetched): answer = fetched
            }
            switch try await resources(of: consume answer, fetch, firstIndex: firstIndex) {
            case .ready(let results): return results
            case .bad where refetches < Self.maximumRefetches:
                refetches += 1
            case .bad(let problem):
                let error = HLSError(problem.code, "\(problem.message) (fetched \(refetches + 1) times)")
                guard fetch.gapWhenUnavailable, !Task.isCancelled else { throw error }
                return fetch.resources.enumerated().map { offset, resource in
                    FetchedResource.unavailable(index: firstIndex + offset, resource: resource, reason: error, budget: budget)
                }
            }
        }
    }

    /// A response to a fetch: where it came from, its head and body.
    private struct Answer {
        let location: ResolvedLocation
        let head: HTTPResponseHead
        let body: ResourceBody

        /// The body, moved out of the answer: its buffer then has no other owner.
        consuming func takeBody() -> ResourceBody { body }
    }

    /// What fetching gave: an answer, or the fetch's resources as gaps (its server could not give
    /// it, and the fetch allows that).
    private enum Fetched {
        case answered(Answer)
        case unavailable([FetchedResource])
    }

    /// What an answer's bytes made: the resources, or why they are not what they should be.
    private enum Made {
        case ready([FetchedResource])
        case bad(HLSError)
    }

    /// Fetches `fetch`, moving to another location when one fails and the resolver has one
    /// (Content Steering: bounded, and never for a cancellation or a resource that is itself too
    /// large).
    private func fetchWithFailover(_ fetch: PlannedFetch, firstIndex: Int) async throws(HLSError) -> Fetched {
        var failovers = 0
        while true {
            let location = try await resolver.location(of: fetch.uri, in: fetch.stream)
            do throws(HLSError) {
                let started = resolver.wantsThroughput ? timing.elapsed() : nil
                let (head, body) = try await fetchBody(fetch, from: location)
                if let started { await resolver.fetched(Int(clamping: body.count), from: location, in: timing.elapsed() - started) }
                return .answered(Answer(location: location, head: head, body: body))
            } catch {
                let unavailable = error.code == .fetchFailed || error.code == .httpStatus
                guard failovers < Self.maximumFailovers, unavailable, await resolver.recover(from: error, at: location) else {
                    guard fetch.gapWhenUnavailable, unavailable, !Task.isCancelled else { throw error }
                    return .unavailable(fetch.resources.enumerated().map { offset, resource in
                        FetchedResource.unavailable(index: firstIndex + offset, resource: resource, reason: error, budget: budget)
                    })
                }
                failovers += 1
            }
        }
    }

    /// The resources of `answer` to `fetch`: its length checked against the byte range, split,
    /// each decrypted with the key in force, checked (`validatedFiles`) and prepared.
    /// - Throws: `budget-exceeded`, `decrypt-failed`, `malformed-media` (wrong key), `bad-key`,
    ///   `destination-unwritable` (a spill file).
    private func resources(of answer: consuming Answer, _ fetch: PlannedFetch, firstIndex: Int) async throws(HLSError) -> Made {
        let what = fetch.label
        let location = answer.location
        let validator = SourceDigest.validator(answer.head.headers)
        let source = SourceDigest.of(location.url)
        // Each body has one owner from here on (the answer consumed; moved, popped, consumed):
        // decryption works in the body's own buffer. A second reference anywhere — the answer
        // still holding it was one — would make it copy every segment.
        let body = answer.takeBody()
        if let expected = fetch.expectedBytes, body.count != expected {
            return .bad(HLSError(.fetchFailed, "\(what) \(URLRedaction.redact(location.url)) answered \(body.count) bytes for a byte range of \(expected)."))
        }
        var bodies = try split(consume body, fetch)
        bodies.reverse()
        var results: [FetchedResource] = []
        results.reserveCapacity(bodies.count)
        for (offset, resource) in fetch.resources.enumerated() {
            guard var body = bodies.popLast() else { break }
            let fetchedBytes = body.count
            guard fetchedBytes <= settings.maximumResourceBytes else {
                throw HLSError(.budgetExceeded, "\(resource.label) is \(fetchedBytes) bytes, over the budget of \(settings.maximumResourceBytes) per resource.")
            }
            var fingerprint: SHA256Digest?
            if let encryption = resource.encryption {
                let key = try await keys.key(encryption.key)
                fingerprint = key.fingerprint
                body = try ResourceDecryption.decrypt(consume body, key: key.bytes, iv: encryption.iv, resource: resource, budget: budget)
                try Self.checkPlaintext(body, resource)
            }
            // Segments and maps are media of their own; a part or unlisted bytes are pieces of one
            // (a recording proves a segment joined from parts as a whole: `PartProof`).
            if case .validatedFiles = settings.preparation, resource.identity.kind == .segment || resource.identity.kind == .initialization,
               let problem = try ResourceMediaCheck.problem(body) {
                return .bad(HLSError(.malformedMedia, "\(resource.label) from \(URLRedaction.redact(location.url)) is not valid \(problem)"))
            }
            let prepared = try prepare(body, resource)
            results.append(FetchedResource(index: firstIndex + offset, resource: resource, body: prepared, fetchedBytes: fetchedBytes,
                                           source: source, validator: validator, pathway: location.pathway, keyFingerprint: fingerprint))
        }
        return .ready(results)
    }

    /// The most times one fetch's bytes are fetched again when they are not what they should be.
    static let maximumRefetches = 2

    /// The most times one fetch moves to another location after failing.
    static let maximumFailovers = 8

    /// The response head and body of `fetch` from `location`, within its byte budget and deadline.
    private func fetchBody(_ fetch: PlannedFetch, from location: ResolvedLocation) async throws(HLSError) -> (HTTPResponseHead, ResourceBody) {
        let what = fetch.label
        let expected = fetch.expectedBytes
        let limit = expected ?? min(settings.maximumResourceBytes, fetch.maximumBytes ?? .max)
        var request = HTTPRequest(url: location.url, purpose: fetch.purpose)
        request.byteRange = fetch.range
        request.limits = settings.limits
        request.limits.maximumBodyBytes = limit
        let timer = deadlines.begin(expected: expected)
        request.cancellationTag = timer?.tag
        let budget = self.budget, settings = self.settings, spillFolder = self.spillFolder, received = self.received
        do throws(HLSError) {
            let answer = try await fetcher.fetch(request, what: what, onHead: { timer?.headArrived($0) }) { head in
                // The byte range's length, else the announced one, sizes the memory taken at once.
                let announced = expected ?? head.headers["Content-Length"].flatMap { UInt64($0) }
                return BodyCollector(expected: announced, budget: budget, inMemoryLimit: settings.maximumInMemoryResourceBytes,
                                     maximumBytes: limit, spillFolder: spillFolder, received: received)
            }
            _ = timer?.end()
            return answer
        } catch {
            let limit = timer?.limit
            if let timer, timer.end(), let limit, let deadline = settings.deadline {
                throw HLSError(.fetchFailed, "\(what) \(URLRedaction.redact(location.url)) did not arrive within its deadline of \(limit) (its size at \(deadline.minimumRate) bytes/s, plus \(deadline.headroom)).", cause: error)
            }
            throw error
        }
    }

    /// One body per resource of `fetch`: the whole body for one resource, else consecutive slices
    /// of their byte ranges' lengths (in memory, or copied into spill files of their own).
    private func split(_ body: consuming ResourceBody, _ fetch: PlannedFetch) throws(HLSError) -> [ResourceBody] {
        guard fetch.resources.count > 1 else { return [body] }
        let lengths = fetch.resources.map { Int($0.identity.byteRange?.length ?? 0) }
        switch body {
        case .memory(let bytes, let reservation):
            var offset = 0
            return lengths.map { length in
                defer { offset += length }
                // The slices share the fetch's reservation until the last of them is written.
                return .memory(Array(bytes[offset..<offset + length]), reservation)
            }
        case .spilled(let file):
            let handle = try file.openHandle()
            var offset: UInt64 = 0
            var parts: [ResourceBody] = []
            for length in lengths {
                let part = try SpillFile(in: spillFolder)
                let writer = try part.openHandle()
                var done = 0
                while done < length {
                    let count = min(SpillFile.chunkBytes, length - done)
                    guard let chunk = handle.read(at: offset + UInt64(done), count: count) else {
                        throw HLSError(.destinationUnwritable, "The spill file \(file.path) could not be read back.")
                    }
                    do { try writer.append(chunk) } catch { throw HLSError(destination: error) }
                    done += count
                }
                writer.close()
                parts.append(.spilled(part))
                offset += UInt64(length)
            }
            return parts
        }
    }

    /// Decrypted bytes must start as media does (MPEG-TS, fMP4, packed audio or WebVTT): a
    /// wrong key whose padding happens to check out gives bytes that start as none of them,
    /// and they must not reach an output that keeps resources as they are.
    private static func checkPlaintext(_ body: ResourceBody, _ resource: PlannedResource) throws(HLSError) {
        let head: [UInt8]
        switch body {
        case .memory(let bytes, _): head = Array(bytes.prefix(2 * 188))
        case .spilled(let file):
            let handle = try file.openHandle()
            defer { handle.close() }
            head = handle.read(at: 0, count: Int(min(file.size, 2 * 188))) ?? []
        }
        guard head.isEmpty || MediaFormat.detect(head) != nil else {
            throw HLSError(.malformedMedia, "\(resource.label) does not start as MPEG-TS, fMP4, packed audio or WebVTT after AES-128 decryption: the key is wrong or the resource is not what the playlist says.")
        }
    }

    /// Takes `body` through the container preparation.
    private func prepare(_ body: ResourceBody, _ resource: PlannedResource) throws(HLSError) -> ResourceBody {
        guard case .joinedFragmentedMP4 = settings.preparation else { return body }
        let isInitialization = resource.identity.kind == .initialization
        func checked<T>(_ step: () throws(MediaError) -> T) throws(HLSError) -> T {
            do { return try step() } catch {
                let encrypted = resource.encryption == nil ? "" : " after decryption (wrong key?)"
                throw HLSError(.malformedMedia, "\(resource.label) is not valid fMP4\(encrypted): \(error.message)", cause: error)
            }
        }
        switch body {
        case .memory(let bytes, let reservation):
            let prepared = try checked { () throws(MediaError) in
                isInitialization ? try MP4SegmentAssembly.initialization(bytes) : try MP4SegmentAssembly.segment(bytes)
            }
            return .memory(prepared, reservation)
        case .spilled(let file):
            // Checked here; the output copies the kept boxes from the file.
            guard let source = MP4FileSource(path: file.path) else {
                throw HLSError(.destinationUnwritable, "The spill file \(file.path) could not be read back.")
            }
            _ = try checked { () throws(MediaError) in
                isInitialization ? try MP4SegmentAssembly.initializationBoxes(source) : try MP4SegmentAssembly.segmentBoxes(source)
            }
            return body
        }
    }
}
