/// Initialization vectors for HLS AES-128 (RFC 8216bis §5.2).
public enum AES128IV {
    /// The IV used when EXT-X-KEY has no IV attribute: the segment's media sequence number as a
    /// 128-bit big-endian integer.
    public static func mediaSequence(_ sequence: UInt64) -> [UInt8] {
        var iv = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { iv[15 - i] = UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(i))) }
        return iv
    }
}
