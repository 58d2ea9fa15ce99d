import TesseraMedia
import TesseraSupport

/// AES-128-CBC with PKCS#7 padding over a resource body, in place: in memory, or through its
/// spill file a chunk at a time (the clear bytes overwrite the ciphertext they came from, and
/// the file is cut at the end of the padding).
package enum ResourceDecryption {
    /// The clear body of `body`, which it consumes: a body held nowhere else is decrypted in its
    /// own buffer (one held elsewhere too would be copied first).
    /// - Throws: `decrypt-failed`; `destination-unwritable` when a spill file fails.
    package static func decrypt(_ body: consuming ResourceBody, key: [UInt8], iv: [UInt8], resource: PlannedResource,
                        budget: MemoryBudget) throws(HLSError) -> ResourceBody {
        func failed(_ error: MediaError) -> HLSError {
            HLSError(.decryptFailed, "\(resource.label) did not decrypt (wrong key or IV, or corrupt data): \(error.message)", cause: error)
        }
        guard case .spilled(let file) = body else {
            guard let (original, reservation) = body.takeMemory() else { preconditionFailure("a body is in memory or spilled") }
            var bytes = consume original
            do { try AES128CBCDecryptor.decryptInPlace(&bytes, key: key, iv: iv, padding: .pkcs7) } catch { throw failed(error) }
            return .memory(bytes, reservation)
        }
        // A spilled body: through its file a chunk at a time.
        let handle = try file.openHandle()
        let total = handle.size
        let decryptor: AES128CBCDecryptor
        do { decryptor = try AES128CBCDecryptor(key: key, iv: iv, padding: .pkcs7) } catch { throw failed(error) }
        var read: UInt64 = 0
        var written: UInt64 = 0
        var clear: [UInt8] = []
        clear.reserveCapacity(SpillFile.chunkBytes + 32)
        func flush() throws(HLSError) {
            guard !clear.isEmpty else { return }
            do { try handle.write(clear, at: written) } catch { throw HLSError(destination: error) }
            written += UInt64(clear.count)
            clear.removeAll(keepingCapacity: true)
        }
        while read < total {
            let count = Int(min(UInt64(SpillFile.chunkBytes), total - read))
            guard let chunk = handle.read(at: read, count: count) else {
                throw HLSError(.destinationUnwritable, "The spill file \(file.path) could not be read back.")
            }
            do { try decryptor.update(chunk, into: &clear) } catch { throw failed(error) }
            read += UInt64(count)
            try flush()
        }
        do { try decryptor.finish(into: &clear) } catch { throw failed(error) }
        try flush()
        do { try handle.truncate(to: written) } catch { throw HLSError(destination: error) }
        handle.close()
        return .spilled(file)
    }
}
