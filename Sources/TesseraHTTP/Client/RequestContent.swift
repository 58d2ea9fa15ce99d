#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request body together with its content type, encoded when the request is built (so an
/// encoding failure is a `request-construction` error before any transport).
public struct RequestContent: Sendable {
    /// The `Content-Type` the body sends, or nil for none.
    public let contentType: String?
    private let encode: @Sendable () throws(HTTPError) -> HTTPRequestBody

    /// A body from a custom encoder.
    public init(contentType: String?, encode: @escaping @Sendable () throws(HTTPError) -> HTTPRequestBody) {
        self.contentType = contentType
        self.encode = encode
    }

    /// The encoded body.
    /// - Throws: `request-construction` errors from the encoder.
    public func body() throws(HTTPError) -> HTTPRequestBody { try encode() }

    /// `value` as JSON through `encoder` (one per request, so its strategies apply to this body only).
    public static func json<T: Encodable & Sendable>(_ value: T, encoder: JSONEncoder = JSONEncoder()) -> RequestContent {
        RequestContent(contentType: "application/json") { () throws(HTTPError) in .bytes(try encodedJSON(value, encoder: encoder)) }
    }

    /// `value` as JSON bytes.
    /// - Throws: `request-construction` (`body-encoding-failed`).
    static func encodedJSON<T: Encodable>(_ value: T, encoder: JSONEncoder = JSONEncoder()) throws(HTTPError) -> [UInt8] {
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw HTTPError(.invalidRequest, code: .bodyEncodingFailed, "The JSON body could not be encoded: \(error).")
        }
    }

    /// `application/x-www-form-urlencoded` pairs, repeated names kept in order.
    public static func form(_ pairs: [(String, String)]) -> RequestContent {
        let bytes = FormURLEncoded.encode(pairs)
        return RequestContent(contentType: FormURLEncoded.contentType) { () throws(HTTPError) in .bytes(bytes) }
    }

    /// Raw bytes with their content type.
    public static func bytes(_ bytes: [UInt8], contentType: String) -> RequestContent {
        RequestContent(contentType: contentType) { () throws(HTTPError) in .bytes(bytes) }
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestContent {
        RequestContent(contentType: contentType) { () throws(HTTPError) in .bytes(Array(text.utf8)) }
    }

    /// A `multipart/form-data` body with its parts and boundary.
    public static func multipart(_ body: MultipartBody) -> RequestContent {
        RequestContent(contentType: body.contentType) { () throws(HTTPError) in .bytes(try body.encode()) }
    }

    /// A file streamed from disk, read again from the start by each attempt.
    public static func file(_ file: URL, contentType: String = "application/octet-stream") -> RequestContent {
        RequestContent(contentType: contentType) { () throws(HTTPError) in .file(file) }
    }

    /// A body produced as it is sent (`HTTPBodyStream`), read again from its start by every
    /// retry or redirect.
    public static func stream(_ stream: any HTTPBodyStream, contentType: String = "application/octet-stream") -> RequestContent {
        RequestContent(contentType: contentType) { () throws(HTTPError) in .stream(stream) }
    }
}
