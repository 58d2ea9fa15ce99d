import CCrypto

/// AES-128-CBC encryption with PKCS#7 padding, as an HLS packager encrypts a segment
/// (`METHOD=AES-128`): for test origins that serve encrypted media.
public enum AES128CBCEncryption {
    /// `plaintext` encrypted with `key` and `iv` (16 bytes each).
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && iv.count == 16, "AES-128 takes 16-byte keys and IVs")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("libcrypto could not allocate a cipher context") }
        defer { EVP_CIPHER_CTX_free(context) }
        precondition(EVP_EncryptInit_ex(context, EVP_aes_128_cbc(), nil, key, iv) == 1, "AES-128-CBC is available")
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var last: Int32 = 0
        output.withUnsafeMutableBufferPointer { buffer in
            precondition(EVP_EncryptUpdate(context, buffer.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1, "encrypts")
            precondition(EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &last) == 1, "pads")
        }
        return Array(output.prefix(Int(written + last)))
    }
}
