import CCurl

/// The body a transfer uploads from a stream, on the loop thread: each reading must produce
/// exactly the stream's length, and a failure of the stream is the transfer's failure (the
/// callback then aborts, and the engine reports the stream's error rather than curl's).
extension CurlTransfer {
    /// The next bytes of the present reading into `buffer`; `CURL_READFUNC_ABORT` on a failure.
    func readUpload(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let upload, let reader = uploadReader else { return Int(CURL_READFUNC_ABORT) }
        do throws(HTTPError) {
            let count = try reader.read(into: buffer)
            guard count >= 0, count <= buffer.count, uploadProduced + Int64(count) <= upload.length else {
                throw HTTPError(.invalidRequest, code: .uploadUnreadable,
                                "The body of \(redactedURL) (\(upload.summary)) produced more than the \(upload.length) bytes it declared.")
            }
            if count == 0, uploadProduced < upload.length {
                throw HTTPError(.invalidRequest, code: .uploadUnreadable,
                                "The body of \(redactedURL) (\(upload.summary)) ended after \(uploadProduced) of the \(upload.length) bytes it declared.")
            }
            uploadProduced += Int64(count)
            return count
        } catch {
            if loop.failure == nil { loop.failure = error }
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// Starts a fresh reading; false (and the transfer's failure set) when the stream cannot be
    /// read again.
    func rewindUpload() -> Bool {
        guard let upload else { return false }
        do throws(HTTPError) {
            uploadReader = nil   // the earlier reading lets go of its file first
            uploadReader = try upload.makeReader()
            uploadProduced = 0
            return true
        } catch {
            if loop.failure == nil { loop.failure = error }
            return false
        }
    }
}
