import Testing
import TesseraSupport

@Suite("CRC32C")
struct CRC32CTests {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// CRC-32C bit by bit, as the polynomial defines it.
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0x82F6_3B78 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    @Test("the check value and RFC 3720 §B.4's vectors")
    func vectors() {
        #expect(Self.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(Self.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(Self.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(Self.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(Self.checksum([]) == 0)
        #expect(CRC32C().hex == "00000000")
        var crc = CRC32C()
        crc.update(Array("123456789".utf8))
        #expect(crc.hex == "e3069283")
    }

    @Test("bytes added in pieces of any size give the checksum of the whole, equal to the bitwise definition")
    func pieces() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = Self.checksum(bytes)
        #expect(whole == Self.reference(bytes))
        for size in [1, 3, 7, 8, 9, 64, 1000, 4096] {
            var crc = CRC32C()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                bytes[start..<end].withUnsafeBytes { crc.update($0) }
                start = end
            }
            #expect(crc.value == whole)
        }
    }
}
