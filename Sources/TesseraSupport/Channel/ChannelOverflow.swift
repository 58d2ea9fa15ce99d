/// What a `BoundedChannel` does with a new element when it already holds its capacity.
public enum ChannelOverflow<Element: Sendable>: Sendable {
    /// Back-pressure on the producer: `send` waits for room, `offer` refuses the element.
    case wait
    /// Lossy for the elements `isDroppable` allows: the oldest such waiting element is dropped
    /// (and counted) to make room; when none waits, a droppable new element is the one dropped,
    /// and any other goes past the capacity (it is never lost).
    case dropOldest(isDroppable: @Sendable (Element) -> Bool)
    /// Lossless, back-pressure outside: every element is taken; the producer asks `hasRoom`
    /// before producing more and hears `onRoom` once a channel found full drained to half.
    case signal
}
