/// Numbers as text with a fixed count of decimals (`%.3f` without Foundation): rounded half
/// away from zero, positional, a `-` only for a nonzero negative result.
package enum FixedDecimal {
    /// `value` with `digits` decimals (0…9); values too large for exact scaling fall back to
    /// Swift's shortest description.
    package static func format(_ value: Double, digits: Int) -> String {
        precondition((0...9).contains(digits), "0 to 9 decimals")
        guard value.isFinite else { return "\(value)" }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e15 else { return "\(value)" }
        let units = Int64(scaled)
        let whole = units / scale
        let fraction = units % scale
        var text = "\(whole)"
        if digits > 0 {
            let decimals = "\(fraction)"
            text += "." + String(repeating: "0", count: digits - decimals.count) + decimals
        }
        return value < 0 && units != 0 ? "-" + text : text
    }
}
