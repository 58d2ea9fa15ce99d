#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte stream format of H.264 and HEVC in MPEG-TS (ITU-T H.264 Annex B, H.265 Annex B):
/// NAL units each after a start code `00 00 01` (or `00 00 00 01`), trailing zero bytes not
/// theirs.
public enum AnnexB {
    /// Where each NAL unit of `bytes` lies (start codes and trailing zeros excluded), in order;
    /// bytes before the first start code belong to no unit.
    /// - Complexity: O(n): `memchr` finds each `01` byte (1 in 256 of coded data), and only
    ///   there are the two bytes before it looked at.
    public static func units(in bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            guard let base = buffer.baseAddress else { return ranges }
            var start: Int?
            let count = buffer.count
            var index = 2    // the earliest place a start code's 01 can be
            while index < count, let found = memchr(base + index, 1, count - index) {
                let one = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if buffer[one - 1] == 0, buffer[one - 2] == 0 {
                    if let open = start { ranges.append(open..<trimmed(buffer, open, one - 2)) }
                    start = one + 1
                    index = one + 3
                } else {
                    index = one + 1
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
