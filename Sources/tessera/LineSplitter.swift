/// Splits bytes into lines ended by LF or CRLF (the end stripped), each at most `maximumBytes`:
/// a longer line is reported once as `.oversized` and its bytes are dropped up to its end, so
/// what is held never exceeds the bound however long a line runs.
struct LineSplitter {
    /// A line, or the report of one over the bound.
    enum Line: Equatable {
        case text(String)
        case oversized
    }

    let maximumBytes: Int
    private var pending: [UInt8] = []
    /// Dropping the rest of an oversized line.
    private var isDiscarding = false

    init(maximumBytes: Int) { self.maximumBytes = max(1, maximumBytes) }

    /// The lines `bytes` completes.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Line] {
        var lines: [Line] = []
        var rest = bytes
        while !rest.isEmpty {
            guard let end = rest.firstIndex(of: 0x0A) else {
                // A CR may still end the line: one byte past the bound is kept until the LF shows.
                if !isDiscarding, pending.count + rest.count > maximumBytes + 1 {
                    lines.append(.oversized)
                    pending.removeAll()
                    isDiscarding = true
                } else if !isDiscarding {
                    pending += rest
                }
                break
            }
            let part = rest[rest.startIndex..<end]
            rest = rest[(end + 1)...]
            if isDiscarding {
                isDiscarding = false
                continue
            }
            pending += part
            if let line = takePending() { lines.append(line) }
        }
        return lines
    }

    /// The last line, when the input ended without a line end.
    mutating func finish() -> Line? {
        defer { isDiscarding = false }
        return isDiscarding || pending.isEmpty ? nil : takePending()
    }

    private mutating func takePending() -> Line? {
        defer { pending.removeAll(keepingCapacity: pending.count <= 64 << 10) }
        if pending.last == 0x0D { pending.removeLast() }
        guard pending.count <= maximumBytes else { return .oversized }
        return .text(String(decoding: pending, as: UTF8.self))
    }
}
