import TesseraSupport

/// Bit rates as people read them.
enum VariantText {
    /// "167.2 kb/s", "5.4 Mb/s".
    static func rate(_ bitsPerSecond: UInt64) -> String {
        bitsPerSecond >= 1_000_000
            ? FixedDecimal.format(Double(bitsPerSecond) / 1_000_000, digits: 1) + " Mb/s"
            : FixedDecimal.format(Double(bitsPerSecond) / 1000, digits: 1) + " kb/s"
    }
}
