#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// A `curl` command line that reproduces a request, safe to paste into a bug report: header
/// values and query values are redacted, user-info and fragments dropped, and the body omitted,
/// unless each is explicitly revealed.
public struct CurlCommand: Sendable {
    /// What to show in clear.
    public struct Reveal: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Header values.
        public static let headerValues = Reveal(rawValue: 1)
        /// Query values.
        public static let queryValues = Reveal(rawValue: 2)
        /// The body (as UTF-8 text, lossy).
        public static let body = Reveal(rawValue: 4)
    }

    /// The command line.
    public let text: String

    /// The command for `request`, revealing only what `reveal` names.
    public init(_ request: HTTPRequest, reveal: Reveal = []) {
        var words = ["curl"]
        if request.method != .get { words += ["-X", request.method.rawValue] }
        words.append(Self.quote(Self.url(request.url, revealQuery: reveal.contains(.queryValues))))
        if let range = request.byteRange { words += ["-r", range.headerSpec] }
        for field in request.headers {
            words += ["-H", Self.quote("\(field.name): \(reveal.contains(.headerValues) ? field.value : "<redacted>")")]
        }
        switch request.body {
        case .bytes(let body)?:
            let shown = reveal.contains(.body) ? String(decoding: body, as: UTF8.self) : "<\(body.count) bytes omitted>"
            words += ["--data-binary", Self.quote(shown)]
        case .file(let file)?:
            words += ["--data-binary", Self.quote(reveal.contains(.body) ? "@" + file.path : "<file omitted>")]
        case .stream(let stream)?:
            words += ["--data-binary", Self.quote("<\(stream.length) streamed bytes omitted>")]
        case nil:
            break
        }
        text = words.joined(separator: " ")
    }

    private static func url(_ url: URL, revealQuery: Bool) -> String {
        guard revealQuery else { return URLRedaction.forEvents(url) }
        return URLRedaction.withoutCredentials(url)?.string ?? "<unparseable URL>"
    }

    /// POSIX shell single quoting.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
