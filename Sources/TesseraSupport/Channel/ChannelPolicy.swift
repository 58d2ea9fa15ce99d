/// What a `BoundedChannel` holds and how: its capacity, what happens beyond it, and how a new
/// element folds into one waiting.
public struct ChannelPolicy<Element: Sendable>: Sendable {
    /// Elements waiting, at most (at least 1).
    public var capacity: Int
    /// What a full channel does with a new element.
    public var overflow: ChannelOverflow<Element>
    /// Asked of each waiting element, newest first, when a new one arrives (nil: never folds).
    public var coalesce: (@Sendable (_ waiting: inout Element, _ new: Element) -> ChannelMerge)?
    /// Whether a consumer's `next()` returns nil when its task is cancelled (true), or the
    /// elements are read to their end regardless (false: a stream whose last element says how
    /// it ended, which its reader must see).
    public var endsOnCancellation: Bool

    /// A policy of `capacity` elements, `overflow` beyond it, folding by `coalesce`.
    public init(capacity: Int, overflow: ChannelOverflow<Element>, endsOnCancellation: Bool = true,
                coalesce: (@Sendable (_ waiting: inout Element, _ new: Element) -> ChannelMerge)? = nil) {
        self.capacity = max(1, capacity)
        self.overflow = overflow
        self.endsOnCancellation = endsOnCancellation
        self.coalesce = coalesce
    }

    /// One element waits at most; a newer one is folded into it by `merge` (the latest state,
    /// with every change since the consumer last looked). The producer never waits.
    public static func latest(merging merge: @escaping @Sendable (_ waiting: Element, _ new: Element) -> Element) -> Self {
        Self(capacity: 1, overflow: .signal) { waiting, new in
            waiting = merge(waiting, new)
            return .merged
        }
    }

    /// A queue of `capacity` elements whose producer waits while it is full.
    public static func backPressure(capacity: Int) -> Self { Self(capacity: capacity, overflow: .wait) }
}
