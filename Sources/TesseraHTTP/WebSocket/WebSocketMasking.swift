/// The XOR mask of RFC 6455 §5.3, eight bytes at a time.
enum WebSocketMasking {
    /// XORs `bytes` in place with the four-byte `key`, starting at key position 0.
    static func apply(key: [UInt8], to bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        // The key repeated twice, read as a word in memory order (so either byte order works).
        let repeated = key + key
        let word = repeated.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        var index = 0
        while index + 8 <= count {
            let value = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: value ^ word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            bytes[index] ^= key[index & 3]
            index += 1
        }
    }
}
