/// The bytes of a planned resource gathered before its turn — a recorder's LL-HLS parts joined
/// into their parent segment — which the resource processor takes instead of making a request.
/// `take` answers nil when they could not be proven to be the resource: the processor then
/// fetches it as planned, so a staged resource never costs a segment.
package struct StagedResource: Sendable {
    private let body: @Sendable () async -> ResourceBody?

    /// A staged resource whose bytes `body` gives (or nil: fetch it).
    package init(_ body: @escaping @Sendable () async -> ResourceBody?) { self.body = body }

    /// The bytes, or nil to fetch the resource as planned.
    package func take() async -> ResourceBody? { await body() }
}
