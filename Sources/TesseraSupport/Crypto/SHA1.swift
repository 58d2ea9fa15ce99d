import CCrypto

/// SHA-1 (FIPS 180-4) over libcrypto's one-shot `EVP_Digest`. Only for protocols that name it
/// (WebSocket's `Sec-WebSocket-Accept`, RFC 6455 §4.2.2); it is not a security digest.
public enum SHA1 {
    /// The 20-byte digest of `message`.
    /// - Complexity: O(n).
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = message.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), bytes.count, &out, &length, EVP_sha1(), nil)
        }
        precondition(done == 1 && length == 20, "libcrypto SHA-1 failed")
        return Array(out.prefix(20))
    }
}
