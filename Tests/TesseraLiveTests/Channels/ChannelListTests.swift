import Foundation
import Testing
import TesseraHLS
import TesseraLive

@Suite("ChannelList: one channel a line")
struct ChannelListTests {
    static func parse(_ text: String) throws(HLSError) -> ChannelList { try ChannelList(parsing: Array(text.utf8)) }

    static func message(_ text: String) -> String? {
        do throws(HLSError) { _ = try parse(text); return nil } catch {
            #expect(error.code == .invalidChannelList)
            return error.message
        }
    }

    @Test("names, URLs and flags; comments, blank lines, CRLF; words quoted as a shell quotes them")
    func lines() throws {
        let list = try Self.parse("""
        # the archive\r
        news https://live.example/news/master.m3u8 --rolling 3600\r

          sport_1\thttp://127.0.0.1:8080/live.m3u8 -H 'Authorization: Bearer a b' --audio "lang:fr" # French
        radio-2 https://r.example/x.m3u8 --header X-Key:\\ v \"quote \\" and \\\\\" 'it''s'
        """)
        #expect(list.entries.map(\.name) == ["news", "sport_1", "radio-2"])
        #expect(list.entries.map(\.line) == [2, 4, 5])
        #expect(list.entries[0].url.absoluteString == "https://live.example/news/master.m3u8")
        #expect(list.entries[0].arguments == ["--rolling", "3600"])
        #expect(list.entries[1].arguments == ["-H", "Authorization: Bearer a b", "--audio", "lang:fr"])
        #expect(list.entries[2].arguments == ["--header", "X-Key: v", "quote \" and \\", "its"])
    }

    @Test("what is refused, each with its line")
    func refusals() {
        #expect(Self.message("news") == "Line 1: a channel needs a name and a URL (NAME URL [flags]).")
        #expect(Self.message("../up https://a.example/x.m3u8")?.contains("is not a channel name") == true)
        #expect(Self.message("-o https://a.example/x.m3u8")?.contains("is not a channel name") == true)
        #expect(Self.message(String(repeating: "n", count: 65) + " https://a.example/x.m3u8")?.contains("is not a channel name") == true)
        #expect(Self.message("a.b https://a.example/x.m3u8")?.contains("is not a channel name") == true, "a dot would clash with NAME.2")
        #expect(Self.message("a https://a.example/x.m3u8\n\na https://b.example/y.m3u8") == "Line 3: the channel a is already on line 1.")
        #expect(Self.message("a file:///etc/passwd")?.contains("absolute http or https URL") == true)
        #expect(Self.message("a /relative.m3u8")?.contains("absolute http or https URL") == true)
        #expect(Self.message("a https://a.example/x.m3u8 -H 'open") == "Line 1 of the channel list: a ' is not closed.")
        #expect(Self.message("a https://a.example/x.m3u8 \"open \\\"") == "Line 1 of the channel list: a \" is not closed.")
        #expect(Self.message("a https://a.example/x.m3u8 \\") == "Line 1 of the channel list: a \\ ends the line.")
        #expect(Self.message("a https://a.example/x.m3u8 \u{1B}[2J") == "Line 1 of the channel list: a control character.")
        #expect(Self.message(String(repeating: "#", count: ChannelList.maximumLineBytes + 1))?.contains("over") == true)
        #expect(Self.message("a https://a.example/\u{FF}") == nil, "UTF-8 beyond ASCII is text")
        do throws(HLSError) {
            _ = try ChannelList(parsing: [0x61, 0x20, 0xFF])
            Issue.record("not UTF-8, yet read")
        } catch {
            #expect(error.message == "The channel list is not UTF-8 text.")
        }
        let many = (0...ChannelList.maximumChannels).map { "c\($0) https://a.example/\($0).m3u8" }.joined(separator: "\n")
        #expect(Self.message(many) == "The channel list has more than \(ChannelList.maximumChannels) channels.")
    }

    @Test("the list read from a file, bounded; a folder or a missing file is the typed error")
    func load() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("channel-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }   // a leftover temporary folder is harmless
        let file = folder.appendingPathComponent("list.txt")
        try Data("news https://a.example/x.m3u8\n".utf8).write(to: file)
        #expect(try ChannelList.load(file).entries.map(\.name) == ["news"])
        for path in [folder, folder.appendingPathComponent("missing")] {
            #expect(throws: HLSError.self) { try ChannelList.load(path) }
        }
        try Data(count: ChannelList.maximumBytes + 1).write(to: file)
        #expect(throws: HLSError.self) { try ChannelList.load(file) }
    }
}
