import CCrypto

/// Constant-time comparison for digests, MACs and keys (`CRYPTO_memcmp`).
public enum ConstantTime {
    /// True when both buffers hold the same bytes. Lengths are public and compared first; equal
    /// lengths are compared without early exit.
    /// - Complexity: O(n).
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }
}
