import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("AES128CBCDecryptor")
struct AES128CBCDecryptorTests {
    // NIST SP 800-38A, F.2.2 CBC-AES128.Decrypt.
    let key = hex("2b7e151628aed2a6abf7158809cf4f3c")
    let iv = hex("000102030405060708090a0b0c0d0e0f")
    let ciphertext = hex("7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2 73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7")
    let plaintext = hex("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")

    @Test("decrypts the NIST SP 800-38A CBC-AES128 vector without padding")
    func nistVector() throws {
        #expect(try AES128CBCDecryptor.decrypt(ciphertext, key: key, iv: iv, padding: .none) == plaintext)
    }

    @Test("in place: the same plaintext as streaming, padding stripped; a wrong key or a partial block fails")
    func inPlace() throws {
        let key = hex("00112233445566778899aabbccddeeff")
        for sequence in 7...10 {
            var buffer = try FixtureStore.bytes("c_fmp4_aes/enc_0\(sequence < 10 ? "0\(sequence)" : "\(sequence)").m4s")
            try AES128CBCDecryptor.decryptInPlace(&buffer, key: key, iv: AES128IV.mediaSequence(UInt64(sequence)))
            #expect(buffer == (try FixtureStore.bytes("c_fmp4_aes/clear_0\(sequence < 10 ? "0\(sequence)" : "\(sequence)").m4s")))
        }
        var nist = ciphertext
        try AES128CBCDecryptor.decryptInPlace(&nist, key: self.key, iv: iv, padding: .none)
        #expect(nist == plaintext)
        var wrong = try FixtureStore.bytes("c_fmp4_aes/enc_008.m4s")
        #expect(throws: MediaError.self) { try AES128CBCDecryptor.decryptInPlace(&wrong, key: self.key, iv: self.iv) }
        var partial = Array(try FixtureStore.bytes("c_fmp4_aes/enc_008.m4s").dropLast(3))
        #expect(throws: MediaError.self) { try AES128CBCDecryptor.decryptInPlace(&partial, key: key, iv: AES128IV.mediaSequence(8)) }
        var empty: [UInt8] = []
        #expect(throws: MediaError.self) { try AES128CBCDecryptor.decryptInPlace(&empty, key: key, iv: self.iv) }
    }

    @Test("gives the same plaintext whatever the chunking", arguments: [1, 3, 16, 17, 4096])
    func chunkingInvariance(maximum: Int) throws {
        let enc = try FixtureStore.bytes("c_fmp4_aes/enc_008.m4s")
        let clear = try FixtureStore.bytes("c_fmp4_aes/clear_008.m4s")
        var generator = SeededGenerator(seed: UInt64(maximum))
        let decryptor = try AES128CBCDecryptor(key: hex("00112233445566778899aabbccddeeff"),
                                               iv: AES128IV.mediaSequence(8), padding: .pkcs7)
        var out: [UInt8] = []
        for chunk in generator.chunks(of: enc, maximum: maximum) { try decryptor.update(chunk, into: &out) }
        try decryptor.finish(into: &out)
        #expect(out == clear)
    }

    @Test("matches openssl enc output (PKCS#7) for every fMP4 fixture segment, IV = media sequence")
    func opensslFixtures() throws {
        let key = try FixtureStore.bytes("c_fmp4_aes/key.bin")
        for sequence in 7...10 {
            let name = sequence < 10 ? "00\(sequence)" : "0\(sequence)"
            let enc = try FixtureStore.bytes("c_fmp4_aes/enc_\(name).m4s")
            let clear = try FixtureStore.bytes("c_fmp4_aes/clear_\(name).m4s")
            #expect(try AES128CBCDecryptor.decrypt(enc, key: key, iv: AES128IV.mediaSequence(UInt64(sequence))) == clear)
        }
    }

    @Test("an explicit-IV TS segment decrypts to its clear reference")
    func explicitIV() throws {
        let enc = try FixtureStore.bytes("c_ts_aes_iv/seg_002.ts")
        let clear = try FixtureStore.bytes("a_ts_vod/seg_002.ts")
        let out = try AES128CBCDecryptor.decrypt(enc, key: try FixtureStore.bytes("c_ts_aes_iv/key.bin"),
                                                 iv: hex("000102030405060708090a0b0c0d0e0f"))
        #expect(out == clear)
    }

    @Test("a wrong key fails with decrypt-failed at the end")
    func wrongKey() throws {
        let enc = try FixtureStore.bytes("c_ts_aes_iv/seg_000.ts")
        #expect(throws: MediaError.self) {
            _ = try AES128CBCDecryptor.decrypt(enc, key: [UInt8](repeating: 7, count: 16), iv: [UInt8](repeating: 0, count: 16))
        }
        do {
            _ = try AES128CBCDecryptor.decrypt(enc, key: [UInt8](repeating: 7, count: 16), iv: [UInt8](repeating: 0, count: 16))
        } catch {
            #expect(error.code == .decryptFailed)
        }
    }

    @Test("a truncated ciphertext fails instead of returning partial plaintext")
    func truncated() throws {
        let enc = Array(try FixtureStore.bytes("c_ts_aes_iv/seg_000.ts").dropLast(5))
        #expect(throws: MediaError.self) {
            _ = try AES128CBCDecryptor.decrypt(enc, key: try FixtureStore.bytes("c_ts_aes_iv/key.bin"),
                                               iv: hex("000102030405060708090a0b0c0d0e0f"))
        }
    }

    @Test("keys and IVs must be exactly 16 bytes")
    func lengths() {
        #expect(throws: MediaError.self) { _ = try AES128CBCDecryptor(key: [1, 2], iv: iv, padding: .pkcs7) }
        #expect(throws: MediaError.self) { _ = try AES128CBCDecryptor(key: key, iv: [UInt8](repeating: 0, count: 15), padding: .pkcs7) }
    }

    @Test("the media-sequence IV is the sequence number as a 128-bit big-endian value")
    func mediaSequenceIV() {
        #expect(AES128IV.mediaSequence(5) == hex("00000000000000000000000000000005"))
        #expect(AES128IV.mediaSequence(0x0102_0304_0506_0708) == hex("00000000000000000102030405060708"))
    }
}
