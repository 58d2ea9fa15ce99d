import Testing
import TesseraMedia
import TesseraTestSupport
import TesseraSupport

@Suite("SHA256Hasher")
struct SHA256HasherTests {
    @Test("matches the FIPS 180-4 example vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(input: String, expected: String) {
        #expect(SHA256Hasher.hash(Array(input.utf8)).hex == expected)
    }

    @Test("one million 'a' fed in seeded random chunks gives the published digest")
    func millionA() throws {
        var generator = SeededGenerator(seed: 42)
        let hasher = try SHA256Hasher()
        for chunk in generator.chunks(of: [UInt8](repeating: 0x61, count: 1_000_000), maximum: 70_000) {
            hasher.update(chunk)
        }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("digests parse from hex and compare by value")
    func digestHex() {
        let digest = SHA256Hasher.hash(Array("abc".utf8))
        #expect(SHA256Digest(hex: digest.hex) == digest)
        #expect(SHA256Digest(hex: digest.hex.uppercased()) == digest)
        #expect(SHA256Digest(hex: "zz") == nil)
        #expect(SHA256Digest(hex: String(digest.hex.dropLast(2))) == nil)
    }
}

@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test("equal buffers compare equal; any differing byte or length does not")
    func compare() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equals([], []))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
    }
}
