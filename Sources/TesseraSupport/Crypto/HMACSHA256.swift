import CCrypto

/// HMAC-SHA256 (RFC 2104, FIPS 198-1) over libcrypto's one-shot `HMAC`.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    /// - Complexity: O(n).
    public static func mac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                // A zero-length buffer's base address may be nil; libcrypto takes a length of 0 with any pointer.
                HMAC(EVP_sha256(), keyBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(key.count),
                     messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &out, &length)
            }
        }
        precondition(done != nil && length == 32, "libcrypto HMAC-SHA256 failed")
        return Array(out.prefix(32))
    }

    /// The MAC of `message`'s UTF-8 bytes.
    public static func mac(key: [UInt8], _ message: String) -> [UInt8] { mac(key: key, Array(message.utf8)) }
}
