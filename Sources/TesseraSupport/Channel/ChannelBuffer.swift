/// The elements a `BoundedChannel` holds, in order, and what its policy does with a new one —
/// no waiting, no locking: the channel's state, tested on its own.
struct ChannelBuffer<Element: Sendable> {
    /// What became of an offered element.
    enum Offered: Equatable {
        /// Added at the end.
        case queued
        /// Folded into one waiting.
        case merged
        /// Dropped by a lossy overflow (counted in `dropped`).
        case dropped
        /// Refused: the buffer is full and its producer waits for room.
        case full
    }

    let policy: ChannelPolicy<Element>
    // Taken elements are cleared at once (their memory released) and compacted away in batches.
    private var elements: [Element?] = []
    private var head = 0
    /// Elements a lossy overflow dropped.
    private(set) var dropped = 0

    init(policy: ChannelPolicy<Element>) { self.policy = policy }

    /// Elements waiting.
    var count: Int { elements.count - head }

    /// Whether the buffer holds its capacity.
    var isFull: Bool { count >= policy.capacity }

    /// Folds `element` into a waiting one, or adds it, as the policy says.
    mutating func offer(_ element: Element) -> Offered {
        if let coalesce = policy.coalesce {
            var index = elements.count - 1
            scan: while index >= head {
                switch coalesce(&elements[index]!, element) {
                case .merged: return .merged
                case .follows: break scan
                case .unrelated: index -= 1
                }
            }
        }
        if isFull {
            switch policy.overflow {
            case .wait:
                return .full
            case .dropOldest(let isDroppable):
                if let oldest = elements[head...].firstIndex(where: { isDroppable($0!) }) {
                    elements.remove(at: oldest)
                    dropped += 1
                } else if isDroppable(element) {
                    dropped += 1
                    return .dropped
                }
            case .signal:
                break
            }
        }
        elements.append(element)
        return .queued
    }

    /// The oldest element, removed; nil when none waits.
    mutating func take() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head].take()
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }
}
