/// One reading of an `AWSChunkedBodyStream`: fills a chunk from the source, signs it, hands out
/// its header, bytes and CRLF, and after the source's last byte the signed empty chunk.
final class AWSChunkedBodyStreamReader: HTTPBodyStreamReader {
    private let source: any HTTPBodyStreamReader
    private let summary: String
    private let decodedLength: Int64
    private var signer: AWSChunkSigner
    /// The chunk being filled from the source.
    private var chunk: [UInt8]
    /// The encoded chunk being handed out, and how much of it is out.
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var consumed: Int64 = 0
    private var isFinished = false

    init(source: any HTTPBodyStreamReader, summary: String, decodedLength: Int64, chunkBytes: Int, signer: AWSChunkSigner) {
        self.source = source
        self.summary = summary
        self.decodedLength = decodedLength
        self.signer = signer
        chunk = [UInt8](repeating: 0, count: chunkBytes)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPError) -> Int {
        if pendingOffset == pending.count {
            guard !isFinished else { return 0 }
            try encodeNextChunk()
        }
        let count = min(buffer.count, pending.count - pendingOffset)
        pending.withUnsafeBytes { encoded in
            buffer.baseAddress!.copyMemory(from: encoded.baseAddress! + pendingOffset, byteCount: count)
        }
        pendingOffset += count
        return count
    }

    /// Reads the next chunk of the source (full but for the last) and encodes it; after the
    /// source's end, the empty chunk.
    private func encodeNextChunk() throws(HTTPError) {
        let wanted = Int(min(Int64(chunk.count), decodedLength - consumed))
        var filled = 0
        while filled < wanted {
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(HTTPError) in try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<wanted])) }
            }.get()
            guard count > 0 else { throw ended(at: consumed + Int64(filled)) }
            filled += count
        }
        consumed += Int64(filled)
        if filled == 0 {
            // The source must be at its end too (a file that grew fails here).
            var probe: UInt8 = 0
            let extra = try withUnsafeMutableBytes(of: &probe) { raw in Result { () throws(HTTPError) in try source.read(into: raw) } }.get()
            guard extra == 0 else {
                throw HTTPError(.invalidRequest, code: .uploadUnreadable, "The body (\(summary)) produced more than the \(decodedLength) bytes signed.")
            }
            isFinished = true
        }
        pending = chunk.withUnsafeBytes { raw in signer.header(for: UnsafeRawBufferPointer(rebasing: raw[0..<filled])) }
        pending.append(contentsOf: chunk[0..<filled])
        pending.append(contentsOf: [0x0D, 0x0A])
        pendingOffset = 0
    }

    private func ended(at count: Int64) -> HTTPError {
        HTTPError(.invalidRequest, code: .uploadUnreadable, "The body (\(summary)) ended after \(count) of the \(decodedLength) bytes signed.")
    }
}
