import TesseraHTTP
import TesseraMedia

/// One segment's path from network bytes to the staging file: optional AES-128 decryption, the
/// job's MPEG-TS validator (the first error-severity finding stops the job), the running SHA-256,
/// the write. Reuses one output buffer.
struct SegmentWriter {
    private let staging: StagingFile
    private let hasher: SHA256Hasher
    private let label: String
    private var decryptor: AES128CBCDecryptor?
    private(set) var validator: TSValidator
    private var buffer: [UInt8] = []
    private var byteCount: UInt64 = 0

    init(staging: StagingFile, hasher: SHA256Hasher, label: String, validator: TSValidator) {
        self.staging = staging
        self.hasher = hasher
        self.label = label
        self.validator = validator
    }

    mutating func startDecrypting(key: [UInt8], iv: [UInt8]) throws(HLSError) {
        do {
            decryptor = try AES128CBCDecryptor(key: key, iv: iv, padding: .pkcs7)
        } catch {
            throw HLSError(.decryptFailed, "\(label) cannot be decrypted: \(error.message)", cause: error)
        }
    }

    mutating func write(_ chunk: [UInt8]) throws(HLSError) {
        guard let decryptor else {
            try emit(chunk)
            return
        }
        buffer.removeAll(keepingCapacity: true)
        do {
            try decryptor.update(chunk, into: &buffer)
        } catch {
            throw HLSError(.decryptFailed, "\(label) did not decrypt: \(error.message)", cause: error)
        }
        try emit(buffer)
    }

    /// Ends the segment; returns the bytes it wrote.
    mutating func finish() throws(HLSError) -> UInt64 {
        if let decryptor {
            buffer.removeAll(keepingCapacity: true)
            do {
                try decryptor.finish(into: &buffer)
            } catch {
                throw HLSError(.decryptFailed, "\(label) did not decrypt (wrong key or IV, or corrupt data): \(error.message)",
                               cause: error)
            }
            try emit(buffer)
        }
        let before = validator.findings.count
        validator.endSegment()
        try stopOnError(since: before)
        return byteCount
    }

    private func stopOnError(since count: Int) throws(HLSError) {
        if let finding = validator.findings.dropFirst(count).first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "\(label) is not a valid MPEG-TS segment: \(finding)")
        }
    }

    private mutating func emit(_ bytes: [UInt8]) throws(HLSError) {
        guard !bytes.isEmpty else { return }
        let before = validator.findings.count
        validator.consume(bytes)
        try stopOnError(since: before)
        let failure = bytes.withUnsafeBytes { raw -> HLSError? in
            hasher.update(raw)
            do throws(HTTPError) { try staging.append(raw) } catch { return HLSError(destination: error) }
            return nil
        }
        if let failure { throw failure }
        byteCount += UInt64(bytes.count)
    }
}
