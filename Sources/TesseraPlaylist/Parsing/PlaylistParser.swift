#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses playlist bytes into a typed `Playlist` and its diagnostics (RFC 8216bis §4).
///
/// Byte-level: one pass validates UTF-8 and splits lines; tags are recognised by comparing
/// bytes; numbers are decoded from bytes; Strings are made only for model values. Variable
/// references are substituted where §4.3 allows. Unknown tags and attributes are kept verbatim.
public struct PlaylistParser: Sendable {
    /// Bounds enforced.
    public var limits: PlaylistLimits
    /// What becomes a thrown error.
    public var policy: DiagnosticPolicy

    /// A parser.
    public init(limits: PlaylistLimits = PlaylistLimits(), policy: DiagnosticPolicy = .lenient) {
        self.limits = limits
        self.policy = policy
    }

    /// Parses a document.
    /// - Throws: `PlaylistError` for a document that cannot be read as a playlist at all (not a
    ///   playlist, not UTF-8, a bound exceeded, an undefined or duplicate variable, mixed kinds), or
    ///   for a diagnostic the policy makes fatal.
    /// - Complexity: O(n) in the document's length.
    public func parse(_ bytes: [UInt8], context: ParseContext = ParseContext()) throws(PlaylistError) -> ParsedPlaylist {
        var failure: PlaylistError?
        var result: ParsedPlaylist?
        bytes.withUnsafeBufferPointer { pointer in
            do throws(PlaylistError) {
                result = try parse(Bytes(base: pointer), context: context)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result!
    }

    /// Parses a document read in pieces, keeping no more of it than the piece being read and the
    /// line the previous one ended in: `read` appends the next bytes (a piece of any size) to the
    /// buffer it is given — which starts with that line — and returns false once there are no more.
    /// The model, the diagnostics and the errors are those `parse(_:context:)` gives for the whole
    /// document (a document over the byte bound is refused once it passes it, its message giving
    /// the bytes read so far). For a large file read from disk, where holding the whole of it
    /// would add its size to the memory a parse takes.
    /// - Throws: as `parse(_:context:)`.
    /// - Complexity: O(n) in the document's length.
    public func parse(context: ParseContext = ParseContext(), reading read: (inout [UInt8]) -> Bool) throws(PlaylistError) -> ParsedPlaylist {
        var builder = PlaylistBuilder(bytes: .none, limits: limits, context: context)
        var scanner = PlaylistText.Scanner(limits: limits)
        var buffer: [UInt8] = []
        var more = true
        while more {
            more = read(&buffer)
            let used = try buffer.withUnsafeBufferPointer { pointer throws(PlaylistError) -> Int in
                builder.bytes = Bytes(base: pointer)
                return try scanner.scan(builder.bytes, isFinal: !more, lines: { builder.consumeCommonSegments($0, from: $1, count: $2, number: $3) }) {
                    (span, number) throws(PlaylistError) in
                    try builder.consume(span, number: number)
                }
            }
            buffer.removeSubrange(..<used)
        }
        builder.bytes = .none   // the last piece's buffer is gone
        return try finish(builder, scanner.summary)
    }

    private func parse(_ bytes: Bytes, context: ParseContext) throws(PlaylistError) -> ParsedPlaylist {
        var builder = PlaylistBuilder(bytes: bytes, limits: limits, context: context)
        let summary = try PlaylistText.scan(bytes, limits: limits, lines: { builder.consumeCommonSegments($0, from: $1, count: $2, number: $3) }) {
            (span, number) throws(PlaylistError) in
            try builder.consume(span, number: number)
        }
        return try finish(builder, summary)
    }

    /// The model and sorted diagnostics once every line was read.
    private func finish(_ builder: consuming PlaylistBuilder, _ summary: PlaylistText.Summary) throws(PlaylistError) -> ParsedPlaylist {
        var builder = builder
        if summary.hasByteOrderMark {
            builder.diagnostics.insert(Diagnostic(.byteOrderMark, .error, line: 1, section: "4.1",
                                                  "The playlist starts with a byte order mark, which it must not have."), at: 0)
        }
        let playlist = try builder.finish()
        builder.diagnostics += PlaylistValidator.validate(playlist)
        let diagnostics = builder.diagnostics.sorted { ($0.line ?? .max) < ($1.line ?? .max) }
        if let fatal = diagnostics.first(where: policy.isFatal) {
            throw PlaylistError(.diagnosticEscalated, "\(fatal.id): \(fatal.message)", line: fatal.line)
        }
        return ParsedPlaylist(playlist: playlist, diagnostics: diagnostics, variables: builder.variables.values)
    }
}
