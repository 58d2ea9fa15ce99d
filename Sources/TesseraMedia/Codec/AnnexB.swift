/// The byte stream format of H.264 and HEVC in MPEG-TS (ITU-T H.264 Annex B, H.265 Annex B):
/// NAL units each after a start code `00 00 01` (or `00 00 00 01`), trailing zero bytes not
/// theirs.
public enum AnnexB {
    /// Where each NAL unit of `bytes` lies (start codes and trailing zeros excluded), in order;
    /// bytes before the first start code belong to no unit.
    /// - Complexity: O(n).
    public static func units(in bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            var start: Int?
            var index = 0
            let count = buffer.count
            while index + 2 < count {
                if buffer[index + 2] > 1 {
                    index += 3   // no start code can begin at index, index + 1 or index + 2
                } else if buffer[index] == 0, buffer[index + 1] == 0, buffer[index + 2] == 1 {
                    if let open = start { ranges.append(open..<trimmed(buffer, open, index)) }
                    index += 3
                    start = index
                } else {
                    index += 1
                }
            }
            if let open = start, open < count { ranges.append(open..<trimmed(buffer, open, count)) }
            return ranges.filter { !$0.isEmpty }
        }
    }

    /// `end` moved back over the zero bytes before it (a 4-byte start code's first, or
    /// `trailing_zero_8bits`), not before `start`.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, bytes[end - 1] == 0 { end -= 1 }
        return end
    }
}
