/// Writes a `Playlist` as canonical text: tags in a fixed order, attributes in the spec's order
/// then unknown ones verbatim, numbers positional, LF line ends. For every playlist the parser
/// accepts, parsing the written text gives an equal model (line numbers aside). Variable
/// references are written already substituted, with the EXT-X-DEFINE tags kept — except where
/// a variable's own value holds `{$`, whose uses are written as the reference so they are not
/// substituted twice (`VariableReferenceText`). A model built in code whose values hold a
/// `{$name}` reference no variable explains cannot be written so that it reads back the same.
public struct PlaylistWriter: Sendable {
    /// A writer.
    public init() {}

    /// The text of `playlist`.
    /// - Complexity: O(n) in the number of elements.
    public func write(_ playlist: Playlist) -> String {
        var lines = LineBuffer()
        lines.append("#EXTM3U")
        switch playlist {
        case .media(let media): writeMedia(media, uri: { uri, _ in uri }, into: &lines)
        case .multivariant(let multivariant): writeMultivariant(multivariant, into: &lines)
        }
        return lines.text
    }

    /// The text of `playlist.rewritingURIs(transform)`, written without making the rewritten
    /// playlist: no copy of a long playlist's segments only to write them once (a packager's
    /// local playlists).
    /// - Complexity: O(n) in the number of elements.
    public func write(_ playlist: MediaPlaylist, rewritingURIs transform: (String, PlaylistURIRole) -> String) -> String {
        var lines = LineBuffer()
        lines.append("#EXTM3U")
        writeMedia(playlist, uri: transform, into: &lines)
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
            lines.appendAttributes("#EXT-X-START:", attributes.text)
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
            lines.appendAttributes("#EXT-X-DEFINE:", attributes.text)
            lines.references.define(define)
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

/// Lines joined by LF. Substitutable text (URI lines, quoted values) goes through the
/// variable references defined so far, so it reads back as written.
struct LineBuffer {
    private(set) var text = ""
    /// The variables whose values need writing as references.
    var references = VariableReferenceText()

    /// A line written verbatim (no substitution applies to it).
    mutating func append(_ line: String) {
        text += line
        text += "\n"
    }

    /// A tag with an attribute list, its quoted values protected.
    mutating func appendAttributes(_ tag: String, _ attributes: String) {
        append(references.isEmpty ? tag + attributes : tag + references.protectQuotedValues(attributes))
    }

    /// A URI line, protected.
    mutating func appendURI(_ uri: String) {
        append(references.protect(uri))
    }
}
