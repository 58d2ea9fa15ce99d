import CCrypto

/// Streaming SHA-256 over libcrypto's EVP digest API (FIPS 180-4).
/// Not `Sendable`: one owner at a time.
public final class SHA256Hasher {
    private let context: OpaquePointer
    private var isFinished = false

    /// Starts a new digest.
    /// - Throws: `crypto-unavailable` when libcrypto cannot allocate or initialise the context.
    public init() throws(SupportError) {
        guard let context = EVP_MD_CTX_new() else {
            throw SupportError(.cryptoUnavailable, "libcrypto could not allocate a digest context.")
        }
        self.context = context
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            let detail = OpenSSLErrorQueue.drain()
            EVP_MD_CTX_free(context)
            throw SupportError(.cryptoUnavailable, "libcrypto could not initialise SHA-256: \(detail).")
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    /// - Complexity: O(n).
    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!isFinished, "SHA256Hasher used after finalize")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let accepted = EVP_DigestUpdate(context, base, bytes.count)
        precondition(accepted == 1, "EVP_DigestUpdate failed on a valid context")
    }

    /// Adds bytes to the digest.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Ends the digest and returns the 32-byte value.
    public func finalize() -> SHA256Digest {
        precondition(!isFinished, "SHA256Hasher finalized twice")
        isFinished = true
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = EVP_DigestFinal_ex(context, &out, &length)
        precondition(done == 1 && length == 32, "EVP_DigestFinal_ex failed on a valid context")
        return SHA256Digest(bytes: Array(out.prefix(32)))
    }

    /// The digest of everything added so far, without ending this digest (a copy of the state is
    /// finalised): a running file digest can vouch for each prefix of the file.
    public func snapshot() -> SHA256Digest {
        precondition(!isFinished, "SHA256Hasher used after finalize")
        guard let copy = EVP_MD_CTX_new() else { preconditionFailure("libcrypto could not allocate a digest context") }
        defer { EVP_MD_CTX_free(copy) }
        precondition(EVP_MD_CTX_copy_ex(copy, context) == 1, "EVP_MD_CTX_copy_ex failed on a valid context")
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(copy, &out, &length) == 1 && length == 32, "EVP_DigestFinal_ex failed on a valid context")
        return SHA256Digest(bytes: Array(out.prefix(32)))
    }

    /// The digest of one buffer.
    /// - Complexity: O(n).
    public static func hash(_ bytes: [UInt8]) -> SHA256Digest {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// The digest of one buffer.
    /// - Complexity: O(n).
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> SHA256Digest {
        let hasher: SHA256Hasher
        do { hasher = try SHA256Hasher() } catch { preconditionFailure("libcrypto SHA-256 unavailable: \(error)") }
        hasher.update(bytes)
        return hasher.finalize()
    }
}
