/// State kept per PID of a transport stream, found by indexing with the PID rather than hashing
/// it: the validator looks a PID up for every 188-byte packet, and a hashed dictionary made that
/// lookup most of its time. A PID is 13 bits (ISO/IEC 13818-1 §2.4.3.2), so one table of 8,192
/// two-byte slots (16 KiB) indexes every PID; the states themselves sit densely in the order
/// their PIDs were first seen.
struct PIDTable<State> {
    /// For each PID, its state's index plus one; 0 for a PID without state.
    private var slots = [UInt16](repeating: 0, count: 1 << 13)
    private var states: [State] = []
    /// The PIDs that have state, in the order they were first given one.
    private(set) var pids: [UInt16] = []

    /// An empty table.
    init() {}

    /// The state of `pid`, if it has one.
    subscript(pid: UInt16) -> State? {
        let slot = slots[Self.index(pid)]
        return slot == 0 ? nil : states[Int(slot) - 1]
    }

    /// The state of `pid`, or `initial` for a PID without one; setting it gives the PID a state.
    subscript(pid: UInt16, default initial: @autoclosure () -> State) -> State {
        get { self[pid] ?? initial() }
        set {
            let index = Self.index(pid)
            let slot = Int(slots[index])
            if slot != 0 {
                states[slot - 1] = newValue
            } else {
                states.append(newValue)
                pids.append(pid)
                slots[index] = UInt16(states.count)
            }
        }
    }

    /// Runs `body` on every state in place.
    mutating func updateAll(_ body: (inout State) -> Void) {
        for position in states.indices { body(&states[position]) }
    }

    private static func index(_ pid: UInt16) -> Int {
        precondition(pid < 1 << 13, "a PID has 13 bits")
        return Int(pid)
    }
}

extension PIDTable: Sendable where State: Sendable {}
