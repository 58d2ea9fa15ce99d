import CCrypto

/// Bytes from libcrypto's CSPRNG (`RAND_bytes`, seeded from the OS).
public enum SecureRandom {
    /// Fills `buffer` with random bytes.
    /// - Throws: `crypto-unavailable` when the generator cannot produce them (not seeded).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(SupportError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        guard RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1 else {
            throw SupportError(.cryptoUnavailable, "libcrypto's random generator failed: \(OpenSSLErrorQueue.drain()).")
        }
    }

    /// `count` random bytes.
    /// - Throws: `crypto-unavailable` when the generator cannot produce them.
    public static func bytes(_ count: Int) throws(SupportError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let filled = out.withUnsafeMutableBytes { raw in
            raw.isEmpty || RAND_bytes(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raw.count)) == 1
        }
        guard filled else {
            throw SupportError(.cryptoUnavailable, "libcrypto's random generator failed: \(OpenSSLErrorQueue.drain()).")
        }
        return out
    }
}
