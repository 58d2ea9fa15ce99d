import Testing
import TesseraMedia

@Suite("Timed text (tx3g) samples")
struct TimedTextTests {
    @Test("samples tile the timeline from 0: empty ones between cues, overlapping cues shown together one per line, equal neighbours merged")
    func tiling() throws {
        let made = try #require(try TimedText.track([
            TimedText.Cue(start: 500, end: 2000, text: "One"),
            TimedText.Cue(start: 1500, end: 3000, text: "Two"),
            TimedText.Cue(start: 4000, end: 5000, text: "Three"),
        ]))
        #expect(made.track.samples.map(\.decodeTime) == [0, 500, 1500, 2000, 3000, 4000])
        #expect(made.samples.map { String(decoding: $0.dropFirst(2), as: UTF8.self) } == ["", "One", "One\nTwo", "Two", "", "Three"])
        #expect(made.samples.allSatisfy { Int($0[0]) << 8 | Int($0[1]) == $0.count - 2 })
        #expect(made.track.endTime == 5000 && made.track.timescale == 1000 && made.track.media.family == "tx3g")
        #expect(try TimedText.track([TimedText.Cue(start: 7, end: 7, text: "never shown")]) == nil)
    }
}
