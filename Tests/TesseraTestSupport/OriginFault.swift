import TesseraHTTP

/// A fault the origin simulator injects on one attempt at one path.
public enum OriginFault: Sendable {
    /// Answer with this status and headers (e.g. 503 with `Retry-After`), no file body.
    case status(Int, HTTPHeaders = HTTPHeaders())
    /// Wait, then serve normally. The wait holds no server thread (the request is parked).
    case delay(Duration)
    /// Announce the full length, send this many bytes, then cut the connection.
    case truncate(afterBytes: UInt64)
    /// Announce the full length, send this many bytes, then hang until the server's limit.
    case stall(afterBytes: UInt64)
    /// Close the connection without any reply.
    case dropConnection
    /// Never answer (parked until the server's limit or shutdown, then 503).
    case hang
    /// Serve these bytes instead of the file (a wrong key, an HTML error page…).
    case replaceBody([UInt8])
    /// Serve the whole file with 200 even when a range was asked for.
    case ignoreRange
    /// Serve the file without announcing its length (chunked transfer coding).
    case unannouncedLength
    /// Serve the file with its length announced, this many bytes each second.
    case trickle(bytesPerSecond: Int)
    /// A chunked body that never ends.
    case endless
}
