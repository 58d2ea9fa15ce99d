/// A body stream encoded `aws-chunked` as it is sent: the source (a file, any stream) read one
/// chunk at a time, each chunk signed in the chain from the headers' seed signature — so a file
/// of any size is signed with a streaming signature in one chunk's memory. Every reading
/// encodes the source again from its first byte, to the same bytes.
final class AWSChunkedBodyStream: HTTPBodyStream {
    let source: any HTTPBodyStream
    let chunkBytes: Int
    /// The chain as it stands before the first chunk.
    let signer: AWSChunkSigner
    let length: Int64

    init(source: any HTTPBodyStream, chunkBytes: Int, signer: AWSChunkSigner) {
        self.source = source
        self.chunkBytes = chunkBytes
        self.signer = signer
        length = AWSChunkSigner.encodedLength(decoded: source.length, chunkBytes: chunkBytes)
    }

    var summary: String { "\(source.summary), aws-chunked" }

    func makeReader() throws(HTTPError) -> any HTTPBodyStreamReader {
        AWSChunkedBodyStreamReader(source: try source.makeReader(), summary: source.summary, decodedLength: source.length,
                                   chunkBytes: chunkBytes, signer: signer)
    }
}
