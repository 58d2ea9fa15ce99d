/// The XOR mask of RFC 6455 §5.3, thirty-two bytes at a time.
enum WebSocketMasking {
    /// XORs `bytes` in place with the four-byte `key`, starting at key position 0.
    static func apply(key: [UInt8], to bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        // The key repeated to the vector's width, read in memory order (so either byte order
        // works). Four 64-bit lanes: SIMD32<UInt8> compiles to a loop over its lanes here.
        let word = (key + key).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let wide = SIMD4<UInt64>(repeating: word)
        var index = 0
        while index + 32 <= count {
            let value = base.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt64>.self)
            base.storeBytes(of: value ^ wide, toByteOffset: index, as: SIMD4<UInt64>.self)
            index += 32
        }
        while index < count {
            bytes[index] ^= key[index & 3]
            index += 1
        }
    }
}
