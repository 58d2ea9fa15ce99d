import TesseraHTTP

/// The deadline of one resource in flight, watched by its transfer's `DeadlineWatch`: set from
/// the byte range's length, or from the response's Content-Length once its head arrives.
package final class ResourceTimer: Sendable {
    /// The cancellation tag its requests carry, so the watch can cancel them.
    package let tag: String
    private let id: UInt64
    private let watch: DeadlineWatch
    private let deadline: ResourceDeadline
    private let isFixed: Bool

    init(id: UInt64, watch: DeadlineWatch, deadline: ResourceDeadline, isFixed: Bool) {
        self.id = id
        self.watch = watch
        self.deadline = deadline
        self.isFixed = isFixed
        tag = DeadlineWatch.tag(id)
    }

    /// The deadline now, from the start; nil when there is none.
    package var limit: Duration? { watch.limit(of: id) }

    /// The response's head arrived: its Content-Length sets the deadline (none without one),
    /// unless the plan's byte range already did.
    package func headArrived(_ head: HTTPResponseHead) {
        guard !isFixed else { return }
        let length = head.headers["Content-Length"].flatMap { UInt64($0) }
        watch.setLimit(of: id, length.map(deadline.limit(forBytes:)))
    }

    /// The resource is done (fetched or failed): true when its deadline had passed and the watch
    /// cancelled it.
    package func end() -> Bool { watch.end(id) }
}
