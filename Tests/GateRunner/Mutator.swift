/// Deterministic mutations of one input: mutation `index` of a file is the same on every machine
/// and every run (a SplitMix64 stream seeded from the file's name and the index), so a failing
/// case is named by `<file>#<index>` and rebuilt by `tessera-gates mutations --case`.
struct Mutator {
    private var state: UInt64

    init(name: String, index: Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a of the name: stable, unlike Hasher
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash ^ (UInt64(truncatingIfNeeded: index) &* 0x9e37_79b9_7f4a_7c15)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Values a hostile or broken origin puts where a number, a string or an enumeration belongs.
    static let hostileValues = ["", "0", "-1", "-0.0", "18446744073709551616", "99999999999999999999999999", "1e308", "NaN",
                                "0x", "\"", "\"unterminated", "{$undefined}", "{$a}{$a}{$a}", ",,,", "=", "YES\u{0}",
                                String(repeating: "9", count: 400), String(repeating: "A", count: 70_000)]

    /// Tags that are dangerous when they appear where they should not.
    static let hostileLines = ["#EXT-X-SKIP:SKIPPED-SEGMENTS=4294967295", "#EXT-X-BYTERANGE:18446744073709551615@18446744073709551615",
                               "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"{$a}{$a}\"", "#EXT-X-MEDIA-SEQUENCE:18446744073709551615",
                               "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x1", "#EXT-X-MAP:URI=\"m.mp4\",BYTERANGE=\"1@-1\"",
                               "#EXT-X-PART:DURATION=-1,URI=\"p\"", "#EXT-X-DATERANGE:ID=\"d\",START-DATE=\"not a date\"",
                               "#EXTINF:-5,", "#EXT-X-TARGETDURATION:0", "#EXT-X-STREAM-INF:BANDWIDTH=", "#EXTM3U",
                               "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"h\",BYTERANGE-START=18446744073709551615"]

    /// Mutation of bytes of any kind: bit flips, bytes set to edge values, truncation, deletion,
    /// duplication and insertion of a run, a run copied over another.
    mutating func mutateBytes(_ input: [UInt8]) -> (bytes: [UInt8], kind: String) {
        var bytes = input
        guard !bytes.isEmpty else { return ([0x47], "byte added to an empty input") }
        let at = below(bytes.count)
        let run = min(bytes.count - at, 1 + below(min(4096, bytes.count)))
        switch below(8) {
        case 0:
            let flips = 1 + below(16)
            for _ in 0..<flips { bytes[below(bytes.count)] ^= UInt8(1 << below(8)) }
            return (bytes, "\(flips) bits flipped")
        case 1:
            let value: UInt8 = [0x00, 0xFF, 0x47, 0x7F, 0x80][below(5)]
            for offset in at..<(at + min(run, 8)) { bytes[offset] = value }
            return (bytes, "bytes at \(at) set to \(value)")
        case 2: return (Array(bytes[..<at]), "truncated at \(at)")
        case 3:
            bytes.removeSubrange(at..<(at + run))
            return (bytes, "\(run) bytes deleted at \(at)")
        case 4:
            bytes.insert(contentsOf: bytes[at..<(at + run)], at: at)
            return (bytes, "\(run) bytes duplicated at \(at)")
        case 5:
            bytes.insert(contentsOf: (0..<run).map { _ in UInt8(truncatingIfNeeded: next()) }, at: at)
            return (bytes, "\(run) random bytes inserted at \(at)")
        case 6:
            let from = below(bytes.count)
            let count = min(run, bytes.count - from, bytes.count - at)
            bytes.replaceSubrange(at..<(at + count), with: input[from..<(from + count)])
            return (bytes, "\(count) bytes from \(from) copied over \(at)")
        default:
            // A size field made huge: four bytes at a position set to 0xFFFFFFF0-ish.
            for offset in at..<min(bytes.count, at + 4) { bytes[offset] = 0xFF }
            return (bytes, "four bytes at \(at) set to 0xFF")
        }
    }

    /// Mutation of a text format by lines: a line deleted, duplicated, swapped or replaced by a
    /// hostile tag, an attribute value replaced by a hostile one, or one of the byte mutations.
    mutating func mutateText(_ input: [UInt8]) -> (bytes: [UInt8], kind: String) {
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        guard lines.count > 1, below(4) != 0 else { return mutateBytes(input) }
        let at = below(lines.count)
        let kind: String
        switch below(5) {
        case 0:
            lines.remove(at: at)
            kind = "line \(at + 1) deleted"
        case 1:
            lines.insert(lines[at], at: at)
            kind = "line \(at + 1) duplicated"
        case 2:
            lines.swapAt(at, below(lines.count))
            kind = "line \(at + 1) swapped"
        case 3:
            let hostile = Self.hostileLines[below(Self.hostileLines.count)]
            lines.insert(Array(hostile.utf8), at: at)
            kind = "\(hostile.prefix(40)) inserted at line \(at + 1)"
        default:
            let value = Self.hostileValues[below(Self.hostileValues.count)]
            kind = "a value on line \(at + 1) replaced by \"\(value.prefix(24))\""
            lines[at] = Self.replacingValue(in: lines[at], with: Array(value.utf8), choosing: below(8))
        }
        return (Array(lines.joined(separator: [UInt8(ascii: "\n")])), kind)
    }

    /// `line` with the value after its `choice`-th '=' or ':' (to the next ',') replaced.
    private static func replacingValue(in line: [UInt8], with value: [UInt8], choosing choice: Int) -> [UInt8] {
        let separators = line.indices.filter { line[$0] == UInt8(ascii: "=") || line[$0] == UInt8(ascii: ":") }
        guard !separators.isEmpty else { return value + line }
        let start = separators[choice % separators.count] + 1
        let end = line[start...].firstIndex(of: UInt8(ascii: ",")) ?? line.endIndex
        return Array(line[..<start]) + value + Array(line[end...])
    }
}
