import TesseraMedia
import TesseraSupport

/// A region of a partial file read as an `MP4ByteSource` (a restored resource's fragments).
struct PartialFileWindow: MP4ByteSource {
    let file: DurableFile
    let offset: UInt64
    let size: UInt64

    func read(at position: UInt64, count: Int) -> [UInt8] {
        guard position < size, count > 0 else { return [] }
        let wanted = Int(min(UInt64(count), size - position))
        var bytes = [UInt8](repeating: 0, count: wanted)
        let got = bytes.withUnsafeMutableBytes { file.read(at: offset + position, into: $0) }
        return Array(bytes.prefix(got))
    }
}
