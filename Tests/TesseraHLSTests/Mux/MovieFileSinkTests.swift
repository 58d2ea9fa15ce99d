import Foundation
import Testing
@testable import TesseraHLS
import TesseraSupport
import TesseraTestSupport

@Suite("Movie file sink: the muxed file hashed, checked and written beside the making of the next bytes")
struct MovieFileSinkTests {
    /// 11 MiB of varied bytes in pieces of 1…300 KiB (so buffers fill past `chunkBytes`).
    static let pieces: [[UInt8]] = {
        var pieces: [[UInt8]] = []
        var seed: UInt32 = 1
        var total = 0
        while total < 11 << 20 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let count = 1 + Int(seed % (300 << 10))
            pieces.append((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
            total += count
        }
        return pieces
    }()

    static func file(_ path: String) throws -> DurableFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        return DurableFile(descriptor: descriptor, path: path)
    }

    @Test("pipe writes what plain appends write, with the same SHA-256, whichever side the write goes to", arguments: [false, true])
    func pipeMatchesAppends(fillIsLight: Bool) throws {
        let folder = try TemporaryDirectory()
        var plain = try MovieFileSink(try Self.file(folder.url.appendingPathComponent("plain").path))
        for piece in Self.pieces { try plain.append(piece) }
        let expected = try plain.finish()

        var piped = try MovieFileSink(try Self.file(folder.url.appendingPathComponent("piped").path))
        try piped.append(Self.pieces[0])   // what was appended before is written first
        var next = 1
        var calls = 0
        try piped.pipe(fillIsLight: fillIsLight) { (buffer: inout [UInt8]) throws(HLSError) in
            calls += 1
            while buffer.count < MovieFileSink.chunkBytes, next < Self.pieces.count {
                buffer += Self.pieces[next]
                next += 1
            }
        }
        let result = try piped.finish()
        #expect(result.byteCount == expected.byteCount)
        #expect(result.sha256 == expected.sha256)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("piped")) == Data(contentsOf: folder.url.appendingPathComponent("plain")))
        #expect(calls > 2, "the bytes came in several buffers")
    }

    @Test("a write that fails (a full disk) is destination-unwritable, and the making stops", arguments: [false, true])
    func fullDisk(fillIsLight: Bool) throws {
        var sink = try MovieFileSink(try Self.file("/dev/full"))
        var next = 0
        var calls = 0
        #expect {
            try sink.pipe(fillIsLight: fillIsLight) { (buffer: inout [UInt8]) throws(HLSError) in
                calls += 1
                while buffer.count < MovieFileSink.chunkBytes, next < Self.pieces.count {
                    buffer += Self.pieces[next]
                    next += 1
                }
            }
        } throws: { error in
            (error as? HLSError)?.code == .destinationUnwritable
        }
        #expect(calls <= 2, "no buffer is made after the first write failed")
    }

    @Test("a failure of the making is thrown as it is, after the buffer beside it was written")
    func fillFails() throws {
        let folder = try TemporaryDirectory()
        var sink = try MovieFileSink(try Self.file(folder.url.appendingPathComponent("movie").path))
        var calls = 0
        #expect {
            try sink.pipe(fillIsLight: true) { (buffer: inout [UInt8]) throws(HLSError) in
                calls += 1
                if calls == 2 { throw HLSError(.sourceChanged, "The second buffer's samples read differently.") }
                buffer += [UInt8](repeating: 1, count: MovieFileSink.chunkBytes)
            }
        } throws: { error in
            (error as? HLSError)?.code == .sourceChanged
        }
        #expect(try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("movie").path)[.size] as? Int == MovieFileSink.chunkBytes)
    }
}
