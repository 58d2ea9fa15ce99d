/// Writes a `Playlist` as canonical text: tags in a fixed order, attributes in the spec's order
/// then unknown ones verbatim, numbers positional, LF line ends. For every playlist the parser
/// accepts, parsing the written text gives an equal model (line numbers aside). Variable
/// references are written already substituted, with the EXT-X-DEFINE tags kept.
public struct PlaylistWriter: Sendable {
    /// A writer.
    public init() {}

    /// The text of `playlist`.
    /// - Complexity: O(n) in the number of elements.
    public func write(_ playlist: Playlist) -> String {
        var lines = LineBuffer()
        lines.append("#EXTM3U")
        switch playlist {
        case .media(let media): writeMedia(media, into: &lines)
        case .multivariant(let multivariant): writeMultivariant(multivariant, into: &lines)
        }
        return lines.text
    }

    func writeCommon(version: Int?, independent: Bool, start: StartPoint?, defines: [VariableDefinition],
                     into lines: inout LineBuffer) {
        if let version { lines.append("#EXT-X-VERSION:\(version)") }
        if independent { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start {
            var attributes = AttributeListText()
            attributes.decimal("TIME-OFFSET", start.timeOffset)
            attributes.yes("PRECISE", start.isPrecise)
            attributes.unknown(start.unknownAttributes)
            lines.append("#EXT-X-START:" + attributes.text)
        }
        for define in defines {
            var attributes = AttributeListText()
            switch define.source {
            case .value(let value):
                attributes.quoted("NAME", define.name)
                attributes.quoted("VALUE", value)
            case .imported:
                attributes.quoted("IMPORT", define.name)
            case .queryParameter:
                attributes.quoted("QUERYPARAM", define.name)
            }
            lines.append("#EXT-X-DEFINE:" + attributes.text)
        }
    }

    func keyAttributes(_ key: SegmentKey) -> String {
        var attributes = AttributeListText()
        attributes.enumerated("METHOD", key.method.description)
        attributes.quoted("URI", key.uri)
        attributes.hexadecimal("IV", key.iv)
        if !key.isIdentity || key.keyFormatVersions != nil { attributes.quoted("KEYFORMAT", key.keyFormat) }
        attributes.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
        attributes.unknown(key.unknownAttributes)
        return attributes.text
    }

    static func byteRange(_ range: PlaylistByteRange) -> String {
        range.offset.map { "\(range.length)@\($0)" } ?? "\(range.length)"
    }
}

/// Lines joined by LF.
struct LineBuffer {
    private(set) var text = ""

    mutating func append(_ line: String) {
        text += line
        text += "\n"
    }
}
