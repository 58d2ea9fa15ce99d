import TesseraMedia

/// The plan's view of HLS IV rules (RFC 8216bis §5.2), delegating to `TesseraMedia`.
enum AES128IVForPlan {
    static func mediaSequence(_ sequence: UInt64) -> [UInt8] { AES128IV.mediaSequence(sequence) }
}
