#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// EXT-X-VERSION, EXT-X-INDEPENDENT-SEGMENTS, EXT-X-START, EXT-X-DEFINE (RFC 8216bis §4.4.1-4.4.2).
extension PlaylistBuilder {
    mutating func applyCommonTag(_ tag: KnownTag, _ value: Span) throws(PlaylistError) {
        switch tag {
        case .version:
            guard version == nil else {
                report(.repeatedTag, .error, "4.4.1.2", "EXT-X-VERSION appears more than once.")
                return
            }
            guard let number = DecimalNumbers.integer(bytes, value), number <= UInt64(Int32.max) else {
                report(.malformedTagValue, .error, "4.4.1.2", "EXT-X-VERSION must be a decimal integer, not \"\(bytes.string(value))\".")
                return
            }
            version = Int(number)
        case .independentSegments:
            if hasIndependentSegments {
                report(.repeatedTag, .error, "4.4.2", "EXT-X-INDEPENDENT-SEGMENTS appears more than once.")
            }
            hasIndependentSegments = true
        case .start:
            try applyStart(value)
        case .define:
            try applyDefine(value)
        default:
            preconditionFailure("not a common tag: \(tag)")
        }
    }

    private mutating func applyStart(_ value: Span) throws(PlaylistError) {
        guard start == nil else {
            report(.repeatedTag, .error, "4.4.2", "EXT-X-START appears more than once.")
            return
        }
        guard var attributes = try attributes(value, tag: "EXT-X-START") else { return }
        guard let (offset, _) = float(&attributes, "TIME-OFFSET", signed: true) else {
            missing(attributes, "TIME-OFFSET", section: "4.4.2.2")
            return
        }
        let precise = flag(&attributes, "PRECISE")
        start = StartPoint(timeOffset: offset, isPrecise: precise, unknownAttributes: unknown(attributes), line: SourceLine(line))
    }

    private mutating func applyDefine(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-DEFINE") else {
            throw PlaylistError(.invalidVariableDefinition, "EXT-X-DEFINE cannot be read.", line: line)
        }
        let name = try quoted(&attributes, "NAME")
        let valueText = try quoted(&attributes, "VALUE")
        let imported = try quoted(&attributes, "IMPORT")
        let query = try quoted(&attributes, "QUERYPARAM")
        let forms = [name, imported, query].compactMap { $0 }
        guard forms.count == 1, let variable = forms.first else {
            throw PlaylistError(.invalidVariableDefinition,
                                "EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM.", line: line)
        }
        guard VariableTable.isValidName(variable) else {
            throw PlaylistError(.invalidVariableDefinition,
                                "Variable name \"\(variable)\" may use only a-z, A-Z, 0-9, '_' and '-'.", line: line)
        }
        let definition: VariableDefinition
        if name != nil {
            guard let valueText else {
                throw PlaylistError(.invalidVariableDefinition, "EXT-X-DEFINE NAME=\"\(variable)\" has no VALUE.", line: line)
            }
            definition = VariableDefinition(name: variable, source: .value(valueText), resolvedValue: valueText, line: SourceLine(line))
        } else if imported != nil {
            guard let importable = context.importableVariables else {
                throw PlaylistError(.invalidVariableDefinition,
                                    "IMPORT=\"\(variable)\" needs the multivariant playlist's variables; this playlist was not loaded through one.",
                                    line: line)
            }
            guard let importedValue = importable[variable] else {
                throw PlaylistError(.undefinedVariable,
                                    "IMPORT=\"\(variable)\" names a variable the multivariant playlist does not declare.", line: line)
            }
            definition = VariableDefinition(name: variable, source: .imported, resolvedValue: importedValue, line: SourceLine(line))
        } else {
            definition = VariableDefinition(name: variable, source: .queryParameter,
                                            resolvedValue: try queryParameter(variable), line: SourceLine(line))
        }
        try variables.define(definition)
    }

    private mutating func queryParameter(_ name: String) throws(PlaylistError) -> String {
        guard let url = context.playlistURL, let query = url.query(percentEncoded: true) else {
            throw PlaylistError(.undefinedVariable,
                                "QUERYPARAM=\"\(name)\": the playlist URL has no query parameter of that name.", line: line)
        }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, PercentDecoding.decode(parts[0], plusIsSpace: true) == name,
                  let value = PercentDecoding.decode(parts[1], plusIsSpace: true),
                  !value.isEmpty else { continue }
            guard !value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\"" }) else {
                throw PlaylistError(.invalidVariableDefinition,
                                    "QUERYPARAM=\"\(name)\": the value contains a line break or a quote.", line: line)
            }
            return value
        }
        throw PlaylistError(.undefinedVariable,
                            "QUERYPARAM=\"\(name)\": the playlist URL has no query parameter of that name with a value.", line: line)
    }
}
