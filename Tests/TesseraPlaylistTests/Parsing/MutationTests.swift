import Testing
import TesseraPlaylist
import TesseraTestSupport

/// Seeded mutations of every fixture and test playlist: byte flips, truncations, line
/// duplications and deletions. Every outcome must be a parse or a `PlaylistError`; a crash would
/// end the test process, and parsing is linear so nothing can hang.
@Suite("Playlist parser under mutation")
struct MutationTests {
    static let seeds = PlaylistWriterTests.corpus

    @Test("every seeded mutation parses or throws a typed error, and what parses writes and re-parses to an equal model",
          arguments: seeds.map(\.0))
    func mutations(name: String) throws {
        let original = Array(try #require(Self.seeds.first { $0.0 == name }?.1).utf8)
        var generator = SeededGenerator(seed: name.utf8.reduce(5381) { ($0 &* 33) &+ UInt64($1) })
        var parsed = 0
        for round in 0..<150 {
            let mutated = Self.mutate(original, round: round, using: &generator)
            let result: ParsedPlaylist
            do throws(PlaylistError) {
                result = try PlaylistParser().parse(mutated)
            } catch {
                #expect(!error.message.isEmpty)
                continue
            }
            parsed += 1
            let written = Array(PlaylistWriter().write(result.playlist).utf8)
            do throws(PlaylistError) {
                #expect(try PlaylistParser().parse(written).playlist == result.playlist, "\(name) round \(round)")
            } catch {
                Issue.record("\(name) round \(round): the written text was rejected: \(error.message)")
            }
        }
        #expect(parsed > 0)
    }

    static func mutate(_ bytes: [UInt8], round: Int, using generator: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        guard !out.isEmpty else { return out }
        switch round % 4 {
        case 0:   // flip a few bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<out.count, using: &generator)
                out[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
        case 1:   // truncate
            out = Array(out.prefix(Int.random(in: 0..<out.count, using: &generator)))
        case 2, 3:   // duplicate or delete a line
            var lines = out.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            let index = Int.random(in: 0..<lines.count, using: &generator)
            if round % 4 == 2 { lines.insert(lines[index], at: index) } else if lines.count > 1 { lines.remove(at: index) }
            out = Array(lines.joined(separator: [0x0A]))
        default:
            break
        }
        return out
    }
}
