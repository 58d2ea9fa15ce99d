/// A hash index of positions in an array its owner keeps: each slot is one word, the element's
/// 32-bit hash tag beside its position, open addressing with linear probing at most half full.
/// Finding a new element touches one slot's cache line and no element, where a `Dictionary`
/// keyed by the element touches its key, its value and its bitmap — the difference a package
/// plan of 100,000 segments, whose tables outgrow the caches, feels on every segment. The
/// owner says whether the element at a position is the one sought (`matches`), so elements are
/// stored once, in its array.
struct PositionIndex: Sendable {
    /// 0: empty; else the hash tag in the high half and the position + 1 in the low half.
    private var slots: [UInt64]
    /// Positions indexed.
    private(set) var count = 0

    /// The most positions an index holds (the low half of a slot, 0 kept for empty).
    static let maximumPosition = Int(UInt32.max) - 1

    init() { slots = Array(repeating: 0, count: 8) }

    /// Room for `capacity` positions without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        let needed = Self.slotCount(for: capacity)
        if needed > slots.count { rehash(into: needed) }
    }

    /// The position of the element hashing to `hash` that `matches`, or nil.
    func find(_ hash: Int, matches: (Int) -> Bool) -> Int? {
        let tag = UInt32(truncatingIfNeeded: hash)
        let mask = slots.count - 1
        var slot = Int(tag) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if UInt32(truncatingIfNeeded: entry >> 32) == tag {
                let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if matches(position) { return position }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Indexes `position` under `hash`; the caller found no element equal to it (`find`).
    mutating func insert(_ hash: Int, position: Int) {
        precondition(position >= 0 && position <= Self.maximumPosition, "a position index holds at most \(Self.maximumPosition) positions")
        if (count + 1) * 2 > slots.count { rehash(into: slots.count * 2) }
        let tag = UInt32(truncatingIfNeeded: hash)
        place(UInt64(tag) << 32 | UInt64(position + 1), in: &slots)
        count += 1
    }

    /// Puts `entry` in the first empty slot from its tag's.
    private func place(_ entry: UInt64, in slots: inout [UInt64]) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// Moves every entry into `count` slots (a power of two): the tag is the hash's low bits, so
    /// no element is hashed again.
    private mutating func rehash(into count: Int) {
        var grown = [UInt64](repeating: 0, count: count)
        for entry in slots where entry != 0 { place(entry, in: &grown) }
        slots = grown
    }

    /// Slots for `capacity` positions at most half full: a power of two, at least 8.
    private static func slotCount(for capacity: Int) -> Int {
        var count = 8
        while count / 2 < capacity { count <<= 1 }
        return count
    }
}
