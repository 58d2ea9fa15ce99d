import Testing
@testable import TesseraPlaylist
import TesseraTestSupport

/// A PROGRAM-DATE-TIME kept without its string (its instant and two bytes of form) must be
/// invisible: every text reads and writes back as written, equal texts are equal values with one
/// hash, and a text its instant cannot rebuild keeps its string.
@Suite("Compact date-time storage")
struct DateTimeStorageTests {
    static func segmentDate(_ text: String) throws -> ProgramDateTime {
        let parsed = try PlaylistParser().parse(Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:\(text)\n#EXTINF:4,\na.ts\n".utf8))
        guard case .media(let media) = parsed.playlist, let date = media.segments.first?.programDateTime else {
            throw PlaylistError(.malformedTag, "no date")
        }
        return date
    }

    @Test("every date text reads back as written, packed or not", arguments: [
        ("2025-01-01T00:00:00Z", true), ("2025-01-01T00:00:00.000Z", true), ("2025-06-30T23:59:59.9Z", true),
        ("2025-06-30T23:59:59.99Z", true), ("2024-02-29T12:00:00.123+05:30", true), ("2024-02-29T12:00:00-0800", true),
        ("2024-02-29T12:00:00.5", true), ("0000-01-01T00:00:00Z", true), ("9999-12-31T23:59:59.999Z", true),
        ("1969-12-31T23:59:59.001Z", true), ("2025-01-01T00:00:00+23:59", true), ("2025-01-01T00:00:00-23:59", true),
        ("2025-01-01t00:00:00Z", false), ("2025-01-01T00:00:00z", false), ("2025-01-01T00:00:00,5Z", false),
        ("2025-01-01T00:00:00.123456Z", false), ("2016-12-31T23:59:60Z", false), ("2025-01-01T00:00:00-00:00", false),
        ("2025-01-01T00:00:00+05", false), ("2025-01-01T00:00:00.Z", false), ("yesterday", false), ("", false),
    ])
    func roundTrip(text: String, packs: Bool) throws {
        let parsed = try Self.segmentDate(text)
        let made = ProgramDateTime(text: text)
        #expect(parsed.text == text && made.text == text)
        #expect(parsed.secondsSince1970 == ISO8601DateTime.secondsSince1970(Array(text.utf8)[...]))
        #expect(parsed == made && parsed.hashValue == made.hashValue)
        #expect((parsed.form != nil) == packs && (made.form != nil) == packs, "a text that packs is packed however it is made")
        #expect(parsed.hasZone == PlaylistValidator.hasZone(text))
        #expect(parsed.withText { Array($0) } == Array(text.utf8), "the bytes a JSON writer takes")
        let written = PlaylistWriter().write(.media(MediaPlaylist(targetDuration: 4, segments: [
            MediaSegment(uri: "a.ts", duration: 4, mediaSequence: 0, programDateTime: parsed)])))
        #expect(written.contains("#EXT-X-PROGRAM-DATE-TIME:\(text)\n"))
    }

    @Test("the form packs exactly the texts its instant rebuilds")
    func packing() throws {
        for (text, packs) in [("2025-01-01T00:00:00.000Z", true), ("2025-01-01T00:00:00+05:30", true),
                              ("2025-01-01T00:00:00-00:00", false), ("2025-01-01T00:00:00.0001Z", false)] {
            let seconds = try #require(ISO8601DateTime.secondsSince1970(Array(text.utf8)[...]))
            let form = Array(text.utf8).withUnsafeBufferPointer { DateTimeForm.of($0, seconds: seconds) }
            #expect((form != nil) == packs, "\(text)")
            if let form { #expect(form.text(seconds) == text) }
        }
    }

    @Test("different texts of one instant are different values; the same text is one value")
    func equality() throws {
        let zulu = try Self.segmentDate("2025-01-01T00:00:00Z")
        let offset = try Self.segmentDate("2025-01-01T01:00:00+01:00")
        let millis = try Self.segmentDate("2025-01-01T00:00:00.000Z")
        #expect(zulu.secondsSince1970 == offset.secondsSince1970 && zulu.secondsSince1970 == millis.secondsSince1970)
        #expect(zulu != offset && zulu != millis && offset != millis)
        #expect(Set([zulu, offset, millis, try Self.segmentDate("2025-01-01T00:00:00Z")]).count == 3)
        #expect(ProgramDateTime(secondsSince1970: 1_735_689_600) == millis, "made from an instant: UTC to the millisecond")
    }
}

extension DateTimeStorageTests {
    @Test("a segment stays within 88 bytes inline and a date within 16 (live playlists hold hundreds of thousands)")
    func sizes() {
        #expect(MemoryLayout<ProgramDateTime?>.size <= 16)
        #expect(MemoryLayout<MediaSegment>.size <= 88)
    }
}

extension DateTimeStorageTests {
    @Test("100,000 dates written in every packed form, years 0 to 9999, read back as written")
    func sample() {
        var generator = SeededGenerator(seed: 0x5EED)
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var failures: [String] = []
        for _ in 0..<100_000 {
            let year = generator.next() % 10_000
            let month = 1 + generator.next() % 12
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            let days: UInt64 = month == 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
            var text = String(repeating: "0", count: 4 - String(year).count) + "\(year)-\(two(month))-\(two(1 + generator.next() % days))"
            text += "T\(two(generator.next() % 24)):\(two(generator.next() % 60)):\(two(generator.next() % 60))"
            let places = Int(generator.next() % 4)
            if places > 0 { text += "." + (0..<places).map { _ in String(generator.next() % 10) }.joined() }
            let minutes = generator.next() % 1440
            switch generator.next() % 4 {
            case 1: text += "Z"
            case 2: text += (minutes == 0 || generator.next() % 2 == 0 ? "+" : "-") + two(minutes / 60) + ":" + two(minutes % 60)
            case 3: text += (minutes == 0 || generator.next() % 2 == 0 ? "+" : "-") + two(minutes / 60) + two(minutes % 60)
            default: break
            }
            let date = ProgramDateTime(text: text)
            if date.form == nil || date.text != text { failures.append(text) }
        }
        #expect(failures.isEmpty, "\(failures.count) did not pack or read back: \(failures.prefix(5))")
    }
}

