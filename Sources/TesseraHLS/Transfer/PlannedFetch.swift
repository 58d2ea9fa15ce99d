import TesseraHTTP

/// One request of a transfer: a whole resource, or contiguous byte ranges of one file coalesced
/// into a single range request. It names its file by the URI as written in its stream's
/// playlist; the URL is resolved only when it is fetched, so a stream can move to another
/// pathway in the middle of a job.
public struct PlannedFetch: Sendable {
    /// The stream whose playlist names the file.
    public let stream: StreamIdentity
    /// The file's URI as written.
    public let uri: String
    /// The range asked for, or nil for the whole file.
    public let range: ByteRange?
    /// The resources the response holds, in order; each takes the next bytes (its byte range's
    /// length; a resource without one takes the whole response).
    public let resources: [PlannedResource]
    /// What the request is for (segment, map or part): policies and limits follow it.
    public let purpose: RequestPurpose
    /// A recorder's segment: when its server cannot give it (an HTTP error status or a failed
    /// transfer, after the client's retries and any pathway failover), its resources are handed
    /// on as unavailable — a gap — instead of ending the transfer.
    package var gapWhenUnavailable = false
    /// Bytes of its one resource gathered already (a recorder's promoted parts), taken instead
    /// of a request when they are proven; else it is fetched as planned.
    package var staged: StagedResource?
    /// The most bytes its response may hold when no byte range says (below the processor's
    /// per-resource budget: a part, a preload hint).
    package var maximumBytes: UInt64?

    /// A fetch of `resources` from `uri` of `stream`.
    public init(stream: StreamIdentity, uri: String, range: ByteRange?, resources: [PlannedResource], purpose: RequestPurpose) {
        precondition(!resources.isEmpty, "a fetch holds at least one resource")
        self.stream = stream
        self.uri = uri
        self.range = range
        self.resources = resources
        self.purpose = purpose
    }

    /// The fetch of one resource.
    public init(_ resource: PlannedResource) {
        let purpose: RequestPurpose = switch resource.identity.kind {
        case .initialization: .map
        case .segment, .unlisted: .segment
        case .part: .part
        }
        self.init(stream: resource.identity.stream, uri: resource.uri, range: resource.identity.byteRange,
                  resources: [resource], purpose: purpose)
    }

    /// The bytes the response must hold, when the range says.
    public var expectedBytes: UInt64? { range?.length }

    /// "Segment 3 (line 17)", or "Segment 3 (line 17) to segment 9 (line 29)" for a coalesced fetch.
    public var label: String {
        guard resources.count > 1, let last = resources.last else { return resources[0].label }
        return "\(resources[0].label) to \(last.label.prefix(1).lowercased() + last.label.dropFirst())"
    }

    /// Groups `resources` (in order) into fetches: consecutive resources of the same stream and
    /// URI whose byte ranges follow each other share one request of at most `maximumBytes`.
    /// - Complexity: O(n), lazily.
    public static func coalescing<S: Sequence>(_ resources: S, maximumBytes: UInt64) -> CoalescedFetches<S.Iterator>
        where S.Element == PlannedResource {
        CoalescedFetches(resources: resources.makeIterator(), maximumBytes: maximumBytes)
    }
}

/// The fetches of a resource sequence, coalesced as they are pulled (no list of the whole plan
/// is ever made).
public struct CoalescedFetches<Resources: IteratorProtocol>: Sequence, IteratorProtocol where Resources.Element == PlannedResource {
    private var resources: Resources
    private var carried: PlannedResource?
    private let maximumBytes: UInt64

    package init(resources: Resources, maximumBytes: UInt64) {
        self.resources = resources
        self.maximumBytes = maximumBytes
    }

    public mutating func next() -> PlannedFetch? {
        guard let first = carried ?? resources.next() else { return nil }
        carried = nil
        guard let range = first.identity.byteRange, let length = range.length, first.identity.kind != .part else {
            return PlannedFetch(first)
        }
        var group = [first]
        var end = range.offset + length
        while let following = resources.next() {
            guard following.uri == first.uri, following.identity.stream == first.identity.stream,
                  following.identity.kind == first.identity.kind || first.identity.kind != .segment || following.identity.kind == .unlisted,
                  let next = following.identity.byteRange, let size = next.length, next.offset == end,
                  end - range.offset <= maximumBytes, size <= maximumBytes - (end - range.offset) else {
                carried = following
                break
            }
            group.append(following)
            end += size
        }
        guard group.count > 1 else { return PlannedFetch(first) }
        return PlannedFetch(stream: first.identity.stream, uri: first.uri, range: ByteRange(offset: range.offset, length: end - range.offset),
                            resources: group, purpose: .segment)
    }
}

extension CoalescedFetches: Sendable where Resources: Sendable {}
