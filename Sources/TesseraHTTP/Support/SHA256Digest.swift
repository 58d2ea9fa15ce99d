import CCrypto

/// One-shot SHA-256 from libcrypto (the disk cache names entries by the digest of their URL, so
/// URLs — and the signed query values in them — never reach the disk).
enum SHA256Digest {
    /// The lowercase hex digest of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil) == 1
        }
        precondition(ok && length == 32, "libcrypto's SHA-256 failed")
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest.prefix(32) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
