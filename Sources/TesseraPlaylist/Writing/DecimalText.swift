/// Decimal text for numbers the writer emits: positional (never exponent notation, which
/// RFC 8216bis §4.2 does not allow), shortest digits that read back to the same `Double`.
enum DecimalText {
    static func format(_ value: Double) -> String {
        let negative = value < 0
        let magnitude = abs(value)
        var text = "\(magnitude)"   // shortest round-trip digits, maybe with an exponent
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            text = positional(mantissa: String(text[..<e]), exponent: Int(text[text.index(after: e)...]) ?? 0)
        }
        if text.hasSuffix(".0") { text.removeLast(2) }
        return negative && magnitude != 0 ? "-" + text : text
    }

    private static func positional(mantissa: String, exponent: Int) -> String {
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
        var point = parts[0].count + exponent
        while digits.count > 1, digits.hasPrefix("0") {
            digits.removeFirst()
            point -= 1
        }
        if point <= 0 { return "0." + String(repeating: "0", count: -point) + digits }
        if point >= digits.count { return digits + String(repeating: "0", count: point - digits.count) }
        let index = digits.index(digits.startIndex, offsetBy: point)
        return String(digits[..<index]) + "." + String(digits[index...])
    }
}
