import Foundation
import TesseraHTTP

extension HTTPRequestBody {
    /// Every byte one reading of the body produces (a stream read to its end in small pieces).
    func readAll(pieceBytes: Int = 1000) throws -> [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .file(let file): return Array(try Data(contentsOf: file))
        case .stream(let stream):
            let reader = try stream.makeReader()
            var out: [UInt8] = []
            var piece = [UInt8](repeating: 0, count: pieceBytes)
            while true {
                let count = try piece.withUnsafeMutableBytes { raw in try reader.read(into: raw) }
                if count == 0 { return out }
                out += piece[0..<count]
            }
        }
    }
}
