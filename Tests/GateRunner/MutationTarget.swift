import TesseraMedia
import TesseraPlaylist

/// The readers a mutated input goes through, by the kind of file it came from. Each reader must
/// accept the input or refuse it with its typed error, never trap or hang; what it accepts must
/// keep the reader's invariants. `check` says whether the input was accepted, or the broken
/// invariant.
enum MutationTarget: String, CaseIterable {
    case playlist, transportStream = "ts", mp4, webVTT = "webvtt"

    init?(fileExtension: String) {
        switch fileExtension {
        case "m3u8": self = .playlist
        case "ts": self = .transportStream
        case "mp4", "m4s": self = .mp4
        case "vtt": self = .webVTT
        default: return nil
        }
    }

    /// Text formats are mutated by lines as well as by bytes.
    var isText: Bool { self == .playlist || self == .webVTT }

    enum Outcome {
        case accepted, refused
        case broken(String)
    }

    func check(_ bytes: [UInt8], key: [UInt8]?) -> Outcome {
        switch self {
        case .playlist: return Self.playlist(bytes)
        case .transportStream: return Self.decrypted(bytes, key: key, then: Self.transportStream)
        case .mp4: return Self.decrypted(bytes, key: key, then: Self.mp4)
        case .webVTT:
            var validator = WebVTTValidator()
            return validator.validate(bytes).allSatisfy { $0.byteOffset <= UInt64(bytes.count) } ? .accepted : .broken("a WebVTT finding points past the file")
        }
    }

    /// The parser with its validator, then the writer: an accepted playlist must write, and
    /// what it writes must parse again.
    private static func playlist(_ bytes: [UInt8]) -> Outcome {
        let parser = PlaylistParser()
        let context = ParseContext(importableVariables: ["a": "1"])
        let parsed: ParsedPlaylist
        do { parsed = try parser.parse(bytes, context: context) } catch { return .refused }
        let written = PlaylistWriter().write(parsed.playlist)
        do { _ = try parser.parse(Array(written.utf8), context: context) } catch {
            return .broken("an accepted playlist wrote text its own parser refuses: \(error)")
        }
        return .accepted
    }

    /// The TS validator over the whole input and over it in 4,000-byte reads (same findings), and the
    /// timestamp rebaser over its whole packets as the runs of a recording — the input appended
    /// to itself, the second copy a new run (a join the rebaser must make or refuse) — never a
    /// changed length.
    private static func transportStream(_ bytes: [UInt8]) -> Outcome {
        var whole = TSValidator()
        whole.consume(bytes)
        let findings = whole.finish()
        var chunked = TSValidator()
        for start in stride(from: 0, to: bytes.count, by: 4_000) {   // not a multiple of 188: packets split across reads
            chunked.consume(Array(bytes[start..<min(bytes.count, start + 4_000)]))
        }
        guard chunked.finish() == findings else { return .broken("the TS validator's findings depend on how the input is read") }
        let packets = Array(bytes.prefix(bytes.count / 188 * 188))
        var rebaser = TSTimestampRebaser()
        for startsRun in [false, true] {
            var run = packets
            do { try rebaser.rebase(&run, startsRun: startsRun) } catch { return .refused }
            guard run.count == packets.count else { return .broken("the rebaser changed a length") }
        }
        return findings.isEmpty ? .accepted : .refused
    }

    /// The fMP4 validator (findings inside the file) and the assembler's box walks (a segment
    /// never grows).
    private static func mp4(_ bytes: [UInt8]) -> Outcome {
        var validator = MP4Validator()
        let findings = validator.validate(MP4MemorySource(bytes))
        guard findings.allSatisfy({ $0.byteOffset <= UInt64(bytes.count) }) else { return .broken("an fMP4 finding points past the file") }
        var accepted = false
        if let kept = try? MP4SegmentAssembly.segment(bytes) {   // refused: the typed error is the expected outcome
            guard kept.count <= bytes.count else { return .broken("the assembler grew a segment") }
            accepted = true
        }
        if (try? MP4SegmentAssembly.initialization(bytes)) != nil { accepted = true }   // refused likewise
        return accepted ? .accepted : .refused
    }

    /// An encrypted fixture's bytes decrypted with its key first (AES-128-CBC, PKCS#7, a zero
    /// IV): a mutated ciphertext decrypts to garbage or is refused for its padding, and the
    /// plaintext, when there is one, goes on to `then`.
    private static func decrypted(_ bytes: [UInt8], key: [UInt8]?, then check: ([UInt8]) -> Outcome) -> Outcome {
        guard let key else { return check(bytes) }
        do {
            return check(try AES128CBCDecryptor.decrypt(bytes, key: key, iv: Array(repeating: 0, count: 16), padding: .pkcs7))
        } catch {
            return .refused
        }
    }
}
