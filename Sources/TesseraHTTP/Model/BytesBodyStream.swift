/// Bytes in memory as a body stream (the source of an `aws-chunked` encoding of a body in memory).
final class BytesBodyStream: HTTPBodyStream {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var length: Int64 { Int64(bytes.count) }
    var summary: String { "\(bytes.count) bytes in memory" }

    func makeReader() throws(HTTPError) -> any HTTPBodyStreamReader { BytesBodyStreamReader(bytes) }
}
