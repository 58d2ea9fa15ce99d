/// A request body produced as it is sent, of a length known up front: a file read in place, an
/// `aws-chunked` encoding signed chunk by chunk, bytes generated on the fly. Each attempt (a
/// retry, a redirect hop, curl rewinding to send again) reads it from the start through a fresh
/// reader, so a stream must produce the same bytes every time it is read.
///
/// Readers run on the transfer engine's thread, inside libcurl's read callback: they may read
/// local files, but must not wait on anything else (a lock held elsewhere, the network, a task).
public protocol HTTPBodyStream: AnyObject, Sendable {
    /// How many bytes every reading produces (sent as `Content-Length`).
    var length: Int64 { get }
    /// What messages and curl exports show for the body (no content, no secret).
    var summary: String { get }
    /// A reader from the first byte.
    /// - Throws: `HTTPError` when the body cannot be read again (its file is gone or changed).
    func makeReader() throws(HTTPError) -> any HTTPBodyStreamReader
}

/// One reading of an `HTTPBodyStream`, confined to the thread that reads it.
public protocol HTTPBodyStreamReader: AnyObject {
    /// Fills the start of `buffer` with the next bytes and returns how many: at least one while
    /// any are left, zero only at the end (after exactly the stream's `length`).
    /// - Throws: `HTTPError` when the bytes cannot be produced (a read error, a file that shrank
    ///   or grew since the stream was made).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPError) -> Int
}
