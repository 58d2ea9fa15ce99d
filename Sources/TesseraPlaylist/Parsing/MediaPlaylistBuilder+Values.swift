/// Value grammars of RFC 8216bis §4.2, read straight from the tag text.
extension MediaPlaylistBuilder {
    static func integer(_ text: Substring, _ name: Substring, _ line: Int) throws(PlaylistError) -> Int {
        guard let value = Int(text), value >= 0 else {
            throw PlaylistError(.malformedTag, "\(name.dropFirst()) must be a decimal integer, not \"\(text)\".", line: line)
        }
        return value
    }

    static func unsigned(_ text: Substring, _ name: Substring, _ line: Int) throws(PlaylistError) -> UInt64 {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let value = UInt64(text) else {
            throw PlaylistError(.malformedTag, "\(name.dropFirst()) must be a decimal integer, not \"\(text)\".", line: line)
        }
        return value
    }

    static func extinf(_ text: Substring, _ line: Int) throws(PlaylistError) -> (value: Double, text: String, title: String?) {
        let comma = text.firstIndex(of: ",")
        let number = comma.map { text[..<$0] } ?? text
        let title = comma.map { text[text.index(after: $0)...] }.flatMap { $0.isEmpty ? nil : String($0) }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
              number.filter({ $0 == "." }).count <= 1, let value = Double(number), value.isFinite else {
            throw PlaylistError(.malformedTag, "EXTINF duration must be a decimal number, not \"\(number)\".", line: line)
        }
        return (value, String(number), title)
    }

    static func byteRange(_ text: Substring, _ name: String, _ line: Int) throws(PlaylistError) -> (UInt64, UInt64?) {
        let at = text.firstIndex(of: "@")
        let lengthText = at.map { text[..<$0] } ?? text
        let offsetText = at.map { text[text.index(after: $0)...] }
        guard let length = UInt64(lengthText), length > 0, lengthText.allSatisfy(\.isASCIIDigit) else {
            throw PlaylistError(.malformedTag, "\(name) must be <length>[@<offset>] with a positive length, not \"\(text)\".", line: line)
        }
        guard let offsetText else { return (length, nil) }
        guard let offset = UInt64(offsetText), offsetText.allSatisfy(\.isASCIIDigit) else {
            throw PlaylistError(.malformedTag, "\(name) offset must be a decimal integer, not \"\(offsetText)\".", line: line)
        }
        return (length, offset)
    }

    static func hex(_ digits: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var pending: UInt8?
        for c in digits.utf8 {
            let v: UInt8
            switch c {
            case 48...57: v = c - 48
            case 65...70: v = c - 55
            case 97...102: v = c - 87
            default: return nil
            }
            if let hi = pending {
                out.append(hi << 4 | v)
                pending = nil
            } else {
                pending = v
            }
        }
        return pending == nil ? out : nil
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
