/// A set of bytes as a 256-bit map: membership is one shift and mask, where `Set<UInt8>` hashes
/// every byte (percent-encoding a URL asks once per byte).
struct ByteSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The bytes of `characters`' UTF-8.
    init(_ characters: String) { insert(contentsOf: characters) }

    /// Whether `byte` is in the set.
    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    /// This set with the bytes of `characters`' UTF-8 added.
    func union(_ characters: String) -> ByteSet {
        var copy = self
        copy.insert(contentsOf: characters)
        return copy
    }

    private mutating func insert(contentsOf characters: String) {
        for byte in characters.utf8 {
            let bit = UInt64(1) << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }
}
