/// How a new element meets one already waiting in a `BoundedChannel`, as its policy's
/// `coalesce` rule says (asked of the waiting elements from the newest to the oldest).
public enum ChannelMerge: Sendable, Equatable {
    /// The new element was folded into the waiting one (which keeps its place): nothing is added.
    case merged
    /// The new element belongs after the waiting one: it is added at the end, nothing older is asked.
    case follows
    /// The waiting element has nothing to do with the new one: the next older one is asked.
    case unrelated
}
