/// Splits a newline-delimited JSON body (NDJSON / JSON Lines) into records as chunks arrive:
/// each record is one line, LF or CRLF terminated; blank lines are skipped; a final record
/// without a newline is returned by `finish()`. Records are bounded in size.
public struct NDJSONLineDecoder: Sendable {
    /// The most bytes one record may hold. Default 1 MiB.
    public let maximumBytes: Int
    private var line: [UInt8] = []

    /// A decoder with the given bound.
    public init(maximumBytes: Int = 1 << 20) {
        self.maximumBytes = maximumBytes
    }

    /// Decodes a chunk and returns the records it completes, without their line endings.
    /// - Throws: `protocol` (`record-too-large`) when a record exceeds `maximumBytes`.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws(HTTPError) -> [[UInt8]] {
        var records: [[UInt8]] = []
        for byte in chunk {
            if byte == 0x0A {
                if let record = take() { records.append(record) }
            } else {
                guard line.count < maximumBytes else {
                    throw HTTPError(.protocol, code: .recordTooLarge, "An NDJSON record exceeded \(maximumBytes) bytes.")
                }
                line.append(byte)
            }
        }
        return records
    }

    /// Ends the stream and returns the last record when it had no newline.
    public mutating func finish() -> [UInt8]? {
        take()
    }

    private mutating func take() -> [UInt8]? {
        defer { line.removeAll(keepingCapacity: true) }
        var end = line.count
        if end > 0, line[end - 1] == 0x0D { end -= 1 }
        let record = line[..<end]
        guard record.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        return Array(record)
    }
}
