import Foundation

/// The JSON the CLI prints: keys sorted, slashes unescaped, one line unless `pretty`.
enum JSONText {
    /// `value` as JSON text. The CLI's documents hold strings, integers, booleans, optionals
    /// and finite numbers only, so encoding cannot fail; were it to, `{}` is printed rather
    /// than nothing, and the caller's exit status still says what happened.
    static func of(_ value: some Encodable, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
