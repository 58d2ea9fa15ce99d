// AES-128-CBC decryption throughput of TesseraMedia's decryptor, the way a download uses it
// (one whole-resource decrypt in place per ~1 MB segment, PKCS#7 padding checked).
//   DecryptBench <encrypted file> <key hex> <iv hex> <segment bytes>
// Prints "decrypt <MB/s>" (1e6 bytes per second, one thread, the best of five passes).
import Foundation
import TesseraMedia

@main
struct DecryptBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let segment = Int(arguments[4]),
              let key = hex(arguments[2]), let iv = hex(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: DecryptBench <file> <key hex> <iv hex> <segment bytes>\n".utf8))
            exit(2)
        }
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        // Encrypt `segment`-sized pieces independently, as HLS segments are.
        var pieces: [[UInt8]] = []
        var offset = 0
        while offset < plain.count {
            let end = min(plain.count, offset + segment)
            pieces.append(try encrypt(Array(plain[offset..<end]), key: key, iv: iv))
            offset = end
        }
        let total = pieces.reduce(0) { $0 + $1.count }
        let inPlace = ProcessInfo.processInfo.environment["DECRYPT_MODE"] != "copy"
        var best = 0.0
        var check = 0
        for _ in 0..<5 {   // five passes over fresh copies; the best pass is reported
            var work = pieces
            for index in work.indices { work[index].withUnsafeMutableBufferPointer { _ in } }   // unshare before timing
            let start = ContinuousClock.now
            for index in work.indices {
                if inPlace {
                    // As a download does: in place, in the buffer the body arrived in.
                    try AES128CBCDecryptor.decryptInPlace(&work[index], key: key, iv: iv, padding: .pkcs7)
                    check &+= Int(work[index].last ?? 0)
                } else {
                    check &+= Int(try AES128CBCDecryptor.decrypt(work[index], key: key, iv: iv, padding: .pkcs7).last ?? 0)
                }
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = max(best, Double(total) / seconds / 1e6)
        }
        print(String(format: "decrypt %.0f", best), check == -1 ? "" : "")
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 32 else { return nil }
        return stride(from: 0, to: 32, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }

    /// openssl enc does the encryption (the bench measures our decryption only).
    static func encrypt(_ bytes: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["enc", "-aes-128-cbc", "-K", key.map { String(format: "%02x", $0) }.joined(),
                             "-iv", iv.map { String(format: "%02x", $0) }.joined()]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread { input.fileHandleForWriting.write(Data(bytes)); try? input.fileHandleForWriting.close() }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }
}
