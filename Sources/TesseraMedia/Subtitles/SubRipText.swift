/// WebVTT cue text as SubRip shows it: the bold, italic and underline spans kept as `<b>`, `<i>`,
/// `<u>`; every other tag (`<c.class>`, `<v Speaker>`, `<lang>`, `<ruby>`/`<rt>`, timestamp
/// tags) removed with its text kept; the character references WebVTT defines (`&amp;` `&lt;`
/// `&gt;` `&nbsp;` `&lrm;` `&rlm;`, and numeric ones) decoded, since SubRip has none.
enum SubRipText {
    /// The tags SubRip players render.
    private static let kept: Set<Substring> = ["b", "i", "u"]

    /// `text` (a cue's payload) converted.
    static func convert(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
            output += rest[..<index]
            rest = rest[index...]
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { break }   // an unclosed tag is text
                let tag = rest[rest.index(after: rest.startIndex)..<close]
                let closing = tag.hasPrefix("/")
                let name = (closing ? tag.dropFirst() : tag).prefix { $0 != "." && $0 != " " && $0 != "\t" }
                if kept.contains(name) { output += closing ? "</\(name)>" : "<\(name)>" }
                rest = rest[rest.index(after: close)...]
            } else {
                let (decoded, length) = reference(rest)
                output += decoded
                rest = rest.dropFirst(length)
            }
        }
        output += rest
        return output
    }

    /// The character `text` (starting with `&`) refers to and how many characters the reference
    /// takes; a `&` that starts no known reference stands for itself.
    private static func reference(_ text: Substring) -> (String, Int) {
        guard let semicolon = text.prefix(12).firstIndex(of: ";") else { return ("&", 1) }
        let name = text[text.index(after: text.startIndex)..<semicolon]
        let length = name.count + 2
        switch name {
        case "amp": return ("&", length)
        case "lt": return ("<", length)
        case "gt": return (">", length)
        case "nbsp": return ("\u{A0}", length)
        case "lrm": return ("\u{200E}", length)
        case "rlm": return ("\u{200F}", length)
        default:
            guard name.hasPrefix("#") else { return ("&", 1) }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return ("&", 1) }
            return (String(scalar), length)
        }
    }
}
