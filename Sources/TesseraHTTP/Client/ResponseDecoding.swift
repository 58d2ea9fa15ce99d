#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// How a collected response body becomes an endpoint's `Response` value.
public struct ResponseDecoding<Value: Sendable>: Sendable {
    private let decode: @Sendable (HTTPResponseHead, [UInt8]) throws(HTTPError) -> Value

    /// A custom decoding.
    public init(_ decode: @escaping @Sendable (HTTPResponseHead, [UInt8]) throws(HTTPError) -> Value) {
        self.decode = decode
    }

    /// Decodes `body`, received with `head`.
    /// - Throws: `decoding` errors.
    public func value(head: HTTPResponseHead, body: [UInt8]) throws(HTTPError) -> Value {
        try decode(head, body)
    }

    /// The body as JSON through `decoder`. When `Value` is an optional, an empty body (or `204`)
    /// decodes to nil instead of failing.
    public static func json(decoder: JSONDecoder = JSONDecoder()) -> ResponseDecoding where Value: Decodable {
        ResponseDecoding { head, body throws(HTTPError) in
            if body.isEmpty || head.status == 204,
               let empty = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
                return empty
            }
            do {
                return try decoder.decode(Value.self, from: Data(body))
            } catch let error as DecodingError {
                throw failure("The body is not the expected JSON: \(Self.describe(error))", head: head)
            } catch {
                throw failure("The body is not the expected JSON.", head: head)
            }
        }
    }

    static func failure(_ message: String, head: HTTPResponseHead) -> HTTPError {
        var error = HTTPError(.decoding, code: .decodingFailed, message)
        error.status = head.status
        error.url = URLRedaction.forEvents(head.url)
        return error
    }

    /// The decoder's explanation and coding path — never the offending value.
    private static func describe(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return "undecodable"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(context.debugDescription) (at \(path))"
    }
}

extension ResponseDecoding where Value == [UInt8] {
    /// The raw bytes.
    public static var bytes: ResponseDecoding { ResponseDecoding { _, body throws(HTTPError) in body } }
}

extension ResponseDecoding where Value == String {
    /// The body as text: UTF-8 unless `Content-Type` names ISO-8859-1 or US-ASCII.
    /// - Throws: `decoding-failed` for bytes that are not valid in that charset.
    public static var string: ResponseDecoding {
        ResponseDecoding { head, body throws(HTTPError) in
            let charset = head.headers["Content-Type"].flatMap(Self.charset) ?? "utf-8"
            switch charset {
            case "iso-8859-1", "latin1":
                return String(decoding: body.map { UInt16($0) }, as: UTF16.self)
            case "us-ascii", "ascii":
                guard body.allSatisfy({ $0 < 0x80 }) else { throw failure("The body is not US-ASCII.", head: head) }
                return String(decoding: body, as: UTF8.self)
            default:
                guard let text = String(validating: body, as: UTF8.self) else {
                    throw failure("The body is not valid UTF-8.", head: head)
                }
                return text
            }
        }
    }

    private static func charset(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { ASCIIText.trimmingBlanks($0) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return ASCIIText.trimming(pair[1]) { $0 == 0x22 }.lowercased()
            }
        }
        return nil
    }
}

extension ResponseDecoding where Value == HTTPNoContent {
    /// Ignores the body.
    public static var nothing: ResponseDecoding { ResponseDecoding { _, _ throws(HTTPError) in HTTPNoContent() } }
}
