/// BCP 47 language tags matched the way RFC 4647 §3.4 "lookup" does: the requested tag,
/// progressively truncated ("zh-Hant-TW" → "zh-Hant" → "zh"; a single-letter subtag is dropped
/// with the one after it), compared case-insensitively; when no truncation finds a rendition, a
/// rendition whose tag starts with the primary subtag ("en" finds "en-GB") is the last resort.
public enum LanguageMatch {
    /// The indices of `languages` that answer `requested` at the most specific level that finds
    /// any, with the range that matched; empty when none does.
    public static func matches(_ requested: String, in languages: [String?]) -> (indices: [Int], range: String?) {
        let lowered = languages.map { $0?.lowercased() }
        let ranges = truncations(of: requested.lowercased())
        for range in ranges {
            let found = lowered.indices.filter { lowered[$0] == range }
            if !found.isEmpty { return (found, range) }
        }
        guard let primary = ranges.last else { return ([], nil) }
        let found = lowered.indices.filter { lowered[$0]?.hasPrefix(primary + "-") == true }
        return (found, found.isEmpty ? nil : primary + "-*")
    }

    /// "en-latn-us", "en-latn", "en".
    static func truncations(of tag: String) -> [String] {
        var subtags = tag.split(separator: "-").map(String.init)
        var out: [String] = []
        while !subtags.isEmpty {
            out.append(subtags.joined(separator: "-"))
            subtags.removeLast()
            if subtags.count > 1, subtags.last?.count == 1 { subtags.removeLast() }
        }
        return out
    }
}
