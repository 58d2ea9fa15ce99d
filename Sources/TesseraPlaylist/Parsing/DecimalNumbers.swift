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
        // The common number first: digits, a point and digits, at most 15 digits in all, so that
        // no significant digit needs counting and the mantissa cannot overflow.
        var mantissa: UInt64 = 0
        var index = start
        while index < span.end, case let digit = bytes[index] &- 0x30, digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        var fraction = 0
        var sawPoint = false
        if index < span.end, bytes[index] == 0x2E {
            sawPoint = true
            index += 1
            let fractionStart = index
            while index < span.end, case let digit = bytes[index] &- 0x30, digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            fraction = index - fractionStart
        }
        let digitCount = span.end - start - (sawPoint ? 1 : 0)
        guard index == span.end, digitCount <= 15 else {
            return decimalDigitByDigit(bytes, span, start: start, negative: negative)
        }
        guard digitCount > 0 else { return nil }   // "." alone
        return rounded(bytes, Span(start: start, end: span.end), mantissa: mantissa, fraction: fraction, negative: negative)
    }

    /// Any other text: more than 15 digits (significant ones counted, exact past them by
    /// `strtod`), or not a number at all.
    private static func decimalDigitByDigit(_ bytes: Bytes, _ span: Span, start: Int, negative: Bool) -> (value: Double, places: UInt8?)? {
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
        return rounded(bytes, Span(start: start, end: span.end), mantissa: mantissa, fraction: fraction, negative: negative)
    }

    /// mantissa ÷ 10^fraction, exact (Clinger's fast path: both fit a double exactly), and the
    /// places when the text (`number`, sign excluded) is plain.
    @inline(__always)
    private static func rounded(_ bytes: Bytes, _ number: Span, mantissa: UInt64, fraction: Int,
                                negative: Bool) -> (value: Double, places: UInt8?) {
        let value = Double(mantissa) / powerOfTen(fraction)
        let leadingZero = number.count > 1 && bytes[number.start] == 0x30 && bytes[number.start + 1] != 0x2E
        let plain = !negative && !leadingZero && bytes[number.start] != 0x2E && bytes[number.end - 1] != 0x2E
        return (negative ? -value : value, plain ? UInt8(fraction) : nil)
    }

    /// 10^exponent, exact for 0...22 (a switch the compiler makes a constant table: a static
    /// array costs a `swift_once` per read).
    static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        case 22: return 1e22
        default:
            var value = 1.0
            for _ in 0..<exponent { value *= 10 }
            return value
        }
    }

    private static func slowParse(_ bytes: Bytes, _ span: Span) -> Double {
        var text = [CChar](repeating: 0, count: span.count + 1)
        for i in 0..<span.count { text[i] = CChar(bitPattern: bytes[span.start + i]) }
        return strtod(text, nil)
    }

    /// `<length>[@<offset>]` (EXT-X-BYTERANGE, a BYTERANGE attribute), each a decimal-integer;
    /// nil when either is not.
    static func byteRange(_ bytes: Bytes, _ value: Span) -> (length: UInt64, offset: UInt64?)? {
        let at = bytes.firstIndex(of: 0x40, in: value)
        guard let length = integer(bytes, Span(start: value.start, end: at ?? value.end)) else { return nil }
        guard let at else { return (length, nil) }
        guard let offset = integer(bytes, Span(start: at + 1, end: value.end)) else { return nil }
        return (length, offset)
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
