import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlayback
import TesseraPlaylist
import TesseraTestSupport
@testable import tessera

@Suite("tessera record --channels: the command line, each channel's flags, the status server")
struct ChannelsCommandTests {
    static func lineup(_ text: String, global: [String] = []) throws -> ChannelLineup {
        let folder = try TemporaryDirectory()
        let file = try folder.write("list.txt", Array(text.utf8))
        let command = try ChannelsCommand.parse(["--channels", file.path, "-o", folder.url.path] + global)
        return try ChannelLineup.load(command.list, global: command.global)
    }

    static func usage(_ arguments: [String]) -> String? {
        do throws(CommandLineArguments.UsageError) { _ = try ChannelsCommand.parse(arguments); return nil } catch { return error.message }
    }

    @Test("a line's flag replaces the command line's, -H adds to it; every channel gets its own header fields")
    func flags() throws {
        let lineup = try Self.lineup("""
        news https://a.example/news.m3u8 --rolling-bytes 1000 -H 'X-Key: news'
        sport https://b.example/sport.m3u8 --duration 60 --from start
        """, global: ["--rolling", "600", "--duration", "3600", "-H", "X-All: 1"])
        let news = try #require(lineup.lines.first)
        let sport = try #require(lineup.lines.last)
        #expect(news.options.retention == .bytes(1000) && news.options.duration == .seconds(3600))
        #expect(sport.options.retention == .duration(.seconds(600)) && sport.options.duration == .seconds(60) && sport.options.start == .windowStart)
        #expect(news.flags.network.headers.count == 2 && sport.flags.network.headers.count == 1)
        #expect(news.revision != sport.revision)
    }

    @Test("a channel reads at most 4 MiB of playlist unless its line or the command says otherwise; a single record 16 MiB")
    func playlistBound() throws {
        let lineup = try Self.lineup("""
        news https://a.example/news.m3u8
        dvr https://b.example/dvr.m3u8 --max-playlist-bytes 33554432
        """)
        #expect(lineup.lines.map(\.options.parser.limits.maximumBytes) == [4 << 20, 32 << 20])
        let raised = try Self.lineup("news https://a.example/news.m3u8", global: ["--max-playlist-bytes", "8388608"])
        #expect(raised.lines.first?.options.parser.limits.maximumBytes == 8 << 20)
        #expect(try RecordCommand.parse(["https://a.example/x.m3u8", "-o", "x"]).options.parser.limits.maximumBytes == 16 << 20)
        #expect(throws: CommandLineArguments.UsageError.self) { try Self.lineup("news https://a.example/x.m3u8 --max-playlist-bytes 12") }
    }

    @Test("flags of the whole command are refused on a line, and a bad line names itself")
    func refusals() throws {
        for flag in ["-o x", "--json", "--status 127.0.0.1:0", "--cacert ca.pem", "--on-channel-failure stop"] {
            #expect(throws: CommandLineArguments.UsageError.self) { try Self.lineup("news https://a.example/x.m3u8 \(flag)") }
        }
        do {
            _ = try Self.lineup("news https://a.example/x.m3u8\nsport https://b.example/y.m3u8 --from later")
            Issue.record("a bad flag was taken")
        } catch let error as CommandLineArguments.UsageError {
            #expect(error.message == "Line 2 of list.txt (sport): --from takes now or start, not later")
        }
        #expect(throws: CommandLineArguments.UsageError.self) { try Self.lineup("# nothing\n") }
    }

    @Test("the status server binds loopback only; the command needs a list and a folder, and no URL of its own")
    func commandLine() {
        #expect(Self.usage(["--channels", "l", "-o", "d", "--status", "0.0.0.0:8080"])?.contains("binds only 127.0.0.0/8 addresses or ::1") == true)
        #expect(Self.usage(["--channels", "l", "-o", "d", "--status", "192.168.1.2:80"])?.contains("binds only") == true)
        #expect(Self.usage(["--channels", "l", "-o", "d", "--status", "localhost:80"])?.contains("binds only") == true)
        #expect(Self.usage(["--channels", "l", "-o", "d", "--status", "127.0.0.1"])?.contains("ADDRESS:PORT") == true)
        #expect(Self.usage(["--channels", "l", "-o", "d", "--status", "[::1]:0"]) == nil)
        #expect(Self.usage(["--channels", "l", "-o", "d", "--status", "127.0.0.2:8090"]) == nil)
        #expect(Self.usage(["--channels", "l", "https://a.example/x.m3u8", "-o", "d"])?.contains("takes no URL") == true)
        #expect(Self.usage(["--channels", "l"]) == "record --channels needs -o <dir>")
        #expect(Self.usage(["--channels", "l", "-o", "d", "--on-channel-failure", "panic"]) == "--on-channel-failure takes retry or stop, not panic")
        #expect(Self.usage(["--channels", "l", "-o", "d", "--preload-hints"]) == "--preload-hints needs --parts")
    }

    @Test("/status is every channel's status as JSON, / the page; nothing else; never cached")
    func responder() throws {
        let folder = try TemporaryDirectory()
        let recorder = ChannelRecorder(directory: folder.url)
        let responder = ChannelStatusResponder(recorder: recorder, now: { 1_800_000_000 })
        guard case .response(let status) = responder.reply(to: ServerRequest(method: .get, path: "/status")),
              case .bytes(let json) = status.body else { Issue.record("no JSON"); return }
        #expect(String(decoding: json, as: UTF8.self) == #"{"channels":[],"time":1800000000}"#)
        #expect(status.headers.contains { $0.name == "Cache-Control" && $0.value == "no-store" })
        guard case .response(let page) = responder.reply(to: ServerRequest(method: .get, path: "/")), case .bytes(let html) = page.body else {
            Issue.record("no page")
            return
        }
        #expect(String(decoding: html, as: UTF8.self).contains("fetch('/status'"))
        guard case .response(let missing) = responder.reply(to: ServerRequest(method: .get, path: "/../etc/passwd")) else { return }
        #expect(missing.status == 404)
    }

    @Test("the terminal's table: a summary, the troubled channels first, at most twenty rows")
    func table() {
        var rows: [ChannelStatus] = []
        for index in 0..<25 {
            var status = ChannelStatus(name: "c\(index)", source: "http://a.example/", now: 0)
            status.state = index == 7 ? .failed : .recording
            rows.append(status)
        }
        let lines = ChannelTable.table(rows)
        #expect(lines[0] == "25 channels: 24 recording, 1 failed")
        #expect(lines[2].hasPrefix("c7 "))
        #expect(lines.count == 2 + ChannelTable.maximumRows + 1 && lines.last == "… and 5 more")
    }

    @Test("each channel's -H reaches its own origin only, though every channel rides one transport", .timeLimit(.minutes(1)))
    func headersStayWithTheirChannel() async throws {
        let segment = try FixtureStore.bytes("a_ts_vod/seg_000.ts")
        func origin() throws -> ScriptedServer {
            try ScriptedServer { request in
                guard request.path.hasSuffix(".m3u8") else { return .init(200, body: segment) }
                let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na.ts\n#EXTINF:2.0,\nb.ts\n#EXT-X-ENDLIST\n"
                return .init(200, body: Array(text.utf8))
            }
        }
        let first = try origin()
        let second = try origin()
        let folder = try TemporaryDirectory()
        let list = """
        one \(first.baseURL.absoluteString)/one.m3u8 -H 'X-Secret: one'
        two \(second.baseURL.absoluteString)/two.m3u8 -H 'X-Secret: two' --header-host 127.0.0.2
        """
        let lineup = try Self.lineup(list, global: ["--from", "start", "-H", "X-Everyone: yes"])
        let transport = try CurlTransport(configuration: try lineup.transport(global: NetworkOptions()))
        defer { transport.shutdown() }
        let recorder = ChannelRecorder(directory: folder.url)
        await recorder.run(lineup.channels(on: transport))
        #expect(recorder.status.map(\.state) == [.finished, .finished])
        for (server, own) in [(first, "one"), (second, "two")] {
            #expect(server.log.filter { $0.path.hasSuffix(".ts") }.count == 2, "both segments")
            #expect(server.log.allSatisfy { $0.headers["X-Secret"] == own && $0.headers["X-Everyone"] == "yes" }, "\(server.log.map(\.headers))")
        }
    }

    @Test("the command lines docs/SCALING.md gives for systemd and Kubernetes parse as given")
    func scalingExamples() throws {
        let text = try String(contentsOf: RepositoryFiles.url("docs/SCALING.md"), encoding: .utf8)
        var commands: [[String]] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("ExecStart=") {
                commands.append(line.replacingOccurrences(of: "%i", with: "1").split(separator: " ").map(String.init))
            } else if line.contains("command: [") {
                let list = String(line[line.firstIndex(of: "[")!...line.lastIndex(of: "]")!])
                commands.append(try JSONDecoder().decode([String].self, from: Data(list.utf8)))
            }
        }
        #expect(commands.count == 2)
        for command in commands {
            let arguments = Array(command.drop { !$0.hasSuffix("tessera") }.dropFirst())
            #expect(arguments.first == "record")
            #expect(throws: Never.self, "\(command)") { _ = try ChannelsCommand.parse(Array(arguments.dropFirst())) }
        }
    }
}
