#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// Number grammars of RFC 8216bis §4.2, decoded straight from bytes.
enum DecimalNumbers {
    /// decimal-integer: 1–20 digits, value ≤ 2^64−1.
    static func integer(_ bytes: Bytes, _ span: Span) -> UInt64? {
        guard span.count > 0, span.count <= 20 else { return nil }
        var value: UInt64 = 0
        if span.count < 20 {   // 19 digits cannot pass 2^64−1: no overflow checks
            for i in span.start..<span.end {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { return nil }
                value = value &* 10 &+ UInt64(digit)
            }
            return value
        }
        for i in span.start..<span.end {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }

    /// decimal-floating-point (`[0-9.]+`, at most one point), or the signed form when `signed`.
    /// Correctly rounded: exact integer ÷ power of ten when both fit (Clinger's fast path),
    /// otherwise `strtod` on a bounded copy.
    static func float(_ bytes: Bytes, _ span: Span, signed: Bool = false) -> Double? {
        decimal(bytes, span, signed: signed)?.value
    }

    /// An EXTINF duration: `float`'s value, and its number of decimal places when the text is
    /// plain — no leading zero before another integer digit, no bare point, at most 15 significant
    /// digits — so that `SegmentDuration` can rebuild the text from the value.
    static func duration(_ bytes: Bytes, _ span: Span) -> (value: Double, places: UInt8?)? {
        decimal(bytes, span, signed: false)
    }

    private static func decimal(_ bytes: Bytes, _ span: Span, signed: Bool) -> (value: Double, places: UInt8?)? {
        var start = span.start
        var negative = false
        if signed, start < span.end, bytes[start] == 0x2D {
            negative = true
            start += 1
        }
        guard start < span.end else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var sawPoint = false
        for i in start..<span.end {
            let byte = bytes[i]
            if byte == 0x2E {
                guard !sawPoint else { return nil }
                sawPoint = true
                continue
            }
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            if mantissa != 0 || digit != 0 { digits += 1 }
            if digits <= 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
            if sawPoint { fraction += 1 }
        }
        guard span.end - start > (sawPoint ? 1 : 0) else { return nil }   // "." alone
        guard digits <= 15, fraction <= 22 else {
            let value = slowParse(bytes, Span(start: start, end: span.end))
            return (negative ? -value : value, nil)
        }
        let value = Double(mantissa) / powerOfTen(fraction)
        let leadingZero = span.end - start > 1 && bytes[start] == 0x30 && bytes[start + 1] != 0x2E
        let plain = !negative && !leadingZero && bytes[start] != 0x2E && bytes[span.end - 1] != 0x2E
        return (negative ? -value : value, plain ? UInt8(fraction) : nil)
    }

    /// 10^exponent, exact for 0...22 (a short loop: a static table costs a `swift_once` per read).
    static func powerOfTen(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private static func slowParse(_ bytes: Bytes, _ span: Span) -> Double {
        var text = [CChar](repeating: 0, count: span.count + 1)
        for i in 0..<span.count { text[i] = CChar(bitPattern: bytes[span.start + i]) }
        return strtod(text, nil)
    }

    /// decimal-resolution: `<width>x<height>`.
    static func resolution(_ bytes: Bytes, _ span: Span) -> Resolution? {
        guard let x = bytes.firstIndex(of: 0x78, in: span),
              let width = integer(bytes, Span(start: span.start, end: x)),
              let height = integer(bytes, Span(start: x + 1, end: span.end)) else { return nil }
        return Resolution(width: width, height: height)
    }

    /// hexadecimal-sequence: `0x`/`0X` then hex digits (either case accepted).
    static func hexadecimal(_ bytes: Bytes, _ span: Span) -> [UInt8]? {
        guard span.count > 2, bytes[span.start] == 0x30, bytes[span.start + 1] | 0x20 == 0x78 else { return nil }
        let digits = span.count - 2
        var out = [UInt8]()
        out.reserveCapacity((digits + 1) / 2)
        var index = span.start + 2
        if digits % 2 == 1 {   // an odd count has an implicit leading zero
            guard let low = HexCoding.digitValue(bytes[index]) else { return nil }
            out.append(low)
            index += 1
        }
        while index < span.end {
            guard let high = HexCoding.digitValue(bytes[index]), let low = HexCoding.digitValue(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
