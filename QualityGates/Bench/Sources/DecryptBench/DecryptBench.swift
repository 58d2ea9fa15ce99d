// AES-128-CBC decryption throughput of TesseraMedia's decryptor, the way a download uses it:
// one whole-segment decrypt in place per HLS segment, PKCS#7 padding checked.
//   DecryptBench <key hex> <iv hex> <encrypted segment>...
// The segments are read into memory first; each of five passes decrypts fresh copies of all of
// them. Prints "decrypt <MB/s>" (1e6 bytes per second, one thread, the best pass).
import Foundation
import TesseraMedia

@main
struct DecryptBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, let key = hex(arguments[1]), let iv = hex(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: DecryptBench <key hex> <iv hex> <encrypted segment>...\n".utf8))
            exit(2)
        }
        let segments = try arguments.dropFirst(3).map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let total = segments.reduce(0) { $0 + $1.count }
        var best = 0.0
        var padding = 0
        for _ in 0..<5 {
            var work = segments
            for index in work.indices { work[index].withUnsafeMutableBufferPointer { _ in } }   // unshare before timing
            let start = ContinuousClock.now
            for index in work.indices {
                try AES128CBCDecryptor.decryptInPlace(&work[index], key: key, iv: iv, padding: .pkcs7)
                padding &+= segments[index].count - work[index].count
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = max(best, Double(total) / seconds / 1e6)
        }
        // The padding removed is printed so the decryption cannot be optimised away.
        print(String(format: "decrypt %.0f", best), "padding \(padding)")
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 32 else { return nil }
        let bytes = stride(from: 0, to: 32, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
        return bytes.count == 16 ? bytes : nil
    }
}
