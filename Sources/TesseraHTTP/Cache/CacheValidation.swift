/// Revalidation of stored responses (RFC 9111 §4.3): the conditional request fields to send, and
/// the stored header fields after a `304 Not Modified`.
public enum CacheValidation {
    /// The precondition fields for revalidating a stored response: `If-None-Match` with its
    /// strong or weak `ETag`, and `If-Modified-Since` with its `Last-Modified` (§4.3.1). Empty when
    /// the response carries no validator.
    public static func conditionalHeaders(for stored: HTTPHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let etag = stored["ETag"], !etag.isEmpty { headers.add("If-None-Match", etag) }
        if let modified = stored["Last-Modified"], !modified.isEmpty { headers.add("If-Modified-Since", modified) }
        return headers
    }

    /// Whether a `304` applies to the stored response (§4.3.4): a strong `ETag` in the 304 must
    /// match the stored one; without one, a `Last-Modified` must match; without either, it
    /// applies when the stored response had no strong validator either.
    public static func notModified(_ response: HTTPHeaders, matches stored: HTTPHeaders) -> Bool {
        if let etag = response["ETag"], !etag.hasPrefix("W/") {
            return stored["ETag"] == etag
        }
        if let etag = response["ETag"] {
            // A weak validator may select a stored response with the same weak or strong tag.
            return stored["ETag"].map { Self.opaqueTag($0) == Self.opaqueTag(etag) } ?? false
        }
        if let modified = response["Last-Modified"] {
            return stored["Last-Modified"] == modified
        }
        return stored["ETag"].map { $0.hasPrefix("W/") } ?? true
    }

    /// The stored header fields updated by a `304` (§3.2): each field the 304 carries replaces the
    /// stored fields of that name, except those describing the stored content
    /// (`Content-Length`, `Content-Encoding`, `Content-Range`, `Transfer-Encoding`) and
    /// connection-specific ones, which keep their stored values.
    public static func updated(_ stored: HTTPHeaders, with notModified: HTTPHeaders) -> HTTPHeaders {
        var result = stored
        result.overlay(notModified, preserving: preservedFields)
        return result
    }

    /// Fields a 304 never overwrites (RFC 9111 §3.2 and RFC 9110 §7.6.1).
    static let preservedFields: Set<String> = [
        "content-length", "content-encoding", "content-range", "transfer-encoding",
        "connection", "keep-alive", "proxy-connection", "te", "upgrade", "trailer",
    ]

    private static func opaqueTag(_ etag: String) -> Substring {
        etag.hasPrefix("W/") ? etag.dropFirst(2) : Substring(etag)
    }
}
