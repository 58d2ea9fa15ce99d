import CCrypto
import TesseraSupport

/// Streaming AES-128-CBC decryption, as HLS `METHOD=AES-128` uses it (RFC 8216bis §5.2).
///
/// Feed ciphertext in chunks of any size with ``update(_:into:)`` and end with ``finish(into:)``.
/// With PKCS#7 padding the last full block is held back until `finish`, so output lags input by up
/// to 16 bytes. The key lives only in libcrypto's context and is wiped when it is freed.
/// Not `Sendable`: one owner at a time, inside one task.
public final class AES128CBCDecryptor {
    /// How the plaintext's end is marked.
    public enum Padding: Sendable {
        /// PKCS#7 (what HLS segments use): the padding is checked and removed.
        case pkcs7
        /// No padding: the ciphertext must be a whole number of blocks.
        case none
    }

    private let context: OpaquePointer
    private var isFinished = false

    /// Prepares a decryptor.
    /// - Throws: `bad-key-length` / `bad-iv-length` unless both are exactly 16 bytes;
    ///   `crypto-unavailable` when libcrypto cannot set up the cipher.
    public init(key: [UInt8], iv: [UInt8], padding: Padding) throws(MediaError) {
        guard key.count == 16 else {
            throw MediaError(.badKeyLength, "An AES-128 key must be 16 bytes; got \(key.count).")
        }
        guard iv.count == 16 else {
            throw MediaError(.badIVLength, "An AES-128 IV must be 16 bytes; got \(iv.count).")
        }
        guard let context = EVP_CIPHER_CTX_new() else {
            throw MediaError(.cryptoUnavailable, "libcrypto could not allocate a cipher context.")
        }
        self.context = context
        guard EVP_DecryptInit_ex2(context, Self.cipher, key, iv, nil) == 1 else {
            let detail = OpenSSLErrorQueue.drain()
            EVP_CIPHER_CTX_free(context)
            throw MediaError(.cryptoUnavailable, "libcrypto could not initialise AES-128-CBC: \(detail).")
        }
        EVP_CIPHER_CTX_set_padding(context, padding == .pkcs7 ? 1 : 0)
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// Decrypts `input`, appending whatever plaintext is ready to `output`.
    /// - Throws: `decrypt-failed` when libcrypto rejects the input.
    public func update(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(MediaError) {
        precondition(!isFinished, "AES128CBCDecryptor used after finish")
        guard input.count > 0, let base = input.baseAddress else { return }
        let start = output.count
        output.reserveCapacity(start + input.count + 16)
        var produced: Int32 = 0
        var ok: Int32 = 0
        var offset = 0
        // EVP takes an Int32 length; feed huge inputs in slices.
        let slice = 1 << 30
        while offset < input.count {
            let n = min(slice, input.count - offset)
            let before = output.count
            output.append(contentsOf: repeatElement(0, count: n + 16))
            ok = output.withUnsafeMutableBufferPointer { out in
                EVP_DecryptUpdate(context, out.baseAddress! + before, &produced,
                                  base.assumingMemoryBound(to: UInt8.self) + offset, Int32(n))
            }
            guard ok == 1 else {
                output.removeSubrange(start...)
                throw MediaError(.decryptFailed, "AES-128 decryption failed: \(OpenSSLErrorQueue.drain()).")
            }
            output.removeSubrange((before + Int(produced))...)
            offset += n
        }
    }

    /// Decrypts `input` (a byte array), appending plaintext to `output`.
    /// - Throws: `decrypt-failed`.
    public func update(_ input: [UInt8], into output: inout [UInt8]) throws(MediaError) {
        var failure: MediaError?
        input.withUnsafeBytes { raw in
            do throws(MediaError) { try update(raw, into: &output) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Ends the stream: checks and strips the padding and appends the last plaintext.
    /// - Throws: `decrypt-failed` for a wrong key, corrupt padding or a partial last block.
    public func finish(into output: inout [UInt8]) throws(MediaError) {
        precondition(!isFinished, "AES128CBCDecryptor finished twice")
        isFinished = true
        var block = [UInt8](repeating: 0, count: 32)
        var produced: Int32 = 0
        guard EVP_DecryptFinal_ex(context, &block, &produced) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            throw MediaError(.decryptFailed,
                             "AES-128 decryption failed at the end of the data: wrong key, corrupt padding or truncated ciphertext.")
        }
        output.append(contentsOf: block.prefix(Int(produced)))
    }

    /// Decrypts a whole buffer in one call.
    /// - Throws: as ``update(_:into:)-7l6a3`` and ``finish(into:)``.
    /// - Complexity: O(n).
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8],
                               padding: Padding = .pkcs7) throws(MediaError) -> [UInt8] {
        var buffer = ciphertext
        try decryptInPlace(&buffer, key: key, iv: iv, padding: padding)
        return buffer
    }

    /// Decrypts a whole buffer where it lies (libcrypto allows an exact overlap), then drops the
    /// padding: no second buffer and no extra pass over memory. On failure `buffer` is undefined.
    /// - Throws: `decrypt-failed` for a wrong key, corrupt padding or a partial last block.
    /// - Complexity: O(n).
    public static func decryptInPlace(_ buffer: inout [UInt8], key: [UInt8], iv: [UInt8],
                                      padding: Padding = .pkcs7) throws(MediaError) {
        let decryptor = try AES128CBCDecryptor(key: key, iv: iv, padding: padding)
        decryptor.isFinished = true
        let count = buffer.count
        guard count > 0 else {
            guard padding == .none else { throw MediaError(.decryptFailed, "AES-128 decryption of an empty input: no padding block.") }
            return
        }
        guard count < Int(Int32.max - 32) else {
            throw MediaError(.decryptFailed, "AES-128 input of \(count) bytes is over the in-place limit of 2 GiB.")
        }
        var final = [UInt8](repeating: 0, count: 32)
        var produced: Int32 = 0, last: Int32 = 0
        let ok = buffer.withUnsafeMutableBufferPointer { bytes -> Bool in
            EVP_DecryptUpdate(decryptor.context, bytes.baseAddress!, &produced, bytes.baseAddress!, Int32(count)) == 1
                && EVP_DecryptFinal_ex(decryptor.context, &final, &last) == 1
        }
        guard ok else {
            _ = OpenSSLErrorQueue.drain()
            throw MediaError(.decryptFailed, "AES-128 decryption failed: wrong key, corrupt padding or truncated ciphertext.")
        }
        let end = Int(produced) + Int(last)
        for index in 0..<Int(last) { buffer[Int(produced) + index] = final[index] }
        buffer.removeSubrange(end...)
    }

    private static var cipher: OpaquePointer? { FetchedCipher.aes128CBC.pointer }
}

/// The AES-128-CBC implementation, fetched once per process. `@unchecked Sendable`: a fetched
/// `EVP_CIPHER` is immutable and reference-counted; OpenSSL 3 documents it as shareable across
/// threads (contexts are not, and are never shared here).
private struct FetchedCipher: @unchecked Sendable {
    let pointer: OpaquePointer?
    static let aes128CBC = FetchedCipher(pointer: EVP_CIPHER_fetch(nil, "AES-128-CBC", nil))
}
