import Foundation
import TesseraPlayback
import TesseraSupport
import TesseraTestSupport

/// Runs a `LiveOrigin` on the loopback server, publishing one one-second part each second of
/// the continuous clock: prints `live origin http://HOST:PORT/live.m3u8` once it listens (and
/// writes the URL to `--url-file`, for a parent that cannot read its stdout), writes
/// a JSON line per publication and per playlist answer to `--log` (wall-clock seconds), plays
/// the scheduled faults, publishes EXT-X-ENDLIST after `--duration`, and exits on SIGINT/SIGTERM
/// or after `--max-seconds`. With `--audio-media`, an audio rendition of that media publishes
/// alongside under `/audio/` (the same parts a segment, dates and clock), and the URL printed is
/// the presentation's `/master.m3u8`.
enum LiveOriginCommand {
    static let usage = """
        tessera-live-origin [--host 127.0.0.1] [--port N] [--parts-per-segment 4] [--window 6 | --event]
          [--published PARTS] [--can-skip-until S | --no-skip] [--skip-dateranges] [--dateranges-every N]
          [--no-low-latency] [--media DIR] [--extension mp4] [--log FILE] [--duration S] [--max-seconds 900]
          [--outage AT:FOR] [--stall AT:FOR] [--age SECONDS] [--gap-every N] [--interstitial-uri URL [--interstitial-every N]] [--key-every N] [--map-every N --init FILE]
          [--url-file FILE] [--scale N] [--audio-media DIR [--audio-codecs LIST]]
        """

    struct Options: Sendable {
        var host = "127.0.0.1"
        var port: UInt16 = 0
        var configuration = LiveOriginPlaylist.Configuration()
        var published = 8
        var media: String?
        var log: String?
        var duration: Double?
        var maxSeconds = 900.0
        var outages: [(at: Double, for: Double)] = []
        var stalls: [(at: Double, for: Double)] = []
        var age: Int?
        var initialization: String?
        var urlFile: String?
        /// Parts (stream seconds) published per real second (a scaled clock's origin).
        var scale = 1
        /// An audio rendition's segments, and the variant's CODECS.
        var audioMedia: String?
        var codecs = "avc1.4d400b,mp4a.40.2"
    }

    static func main(_ arguments: [String]) async -> Int32 {
        let options: Options
        do { options = try parse(arguments) } catch {
            FileHandle.standardError.write(Data("tessera-live-origin: \(error)\n\(usage)\n".utf8))
            return 2
        }
        do { try await run(options) } catch {
            FileHandle.standardError.write(Data("tessera-live-origin: \(error)\n".utf8))
            return 1
        }
        return 0
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return next
        }
        func number(_ flag: String) throws -> Double {
            let text = try value(flag)
            guard let number = Double(text), number >= 0, number.isFinite else { throw UsageError(description: "\(flag) needs a number, not \(text)") }
            return number
        }
        func span(_ flag: String) throws -> (at: Double, for: Double) {
            let text = try value(flag)
            let parts = text.split(separator: ":").compactMap { Double($0) }
            guard parts.count == 2, parts[0] >= 0, parts[1] > 0 else { throw UsageError(description: "\(flag) needs AT:FOR seconds, not \(text)") }
            return (parts[0], parts[1])
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--host": options.host = try value(flag)
            case "--port": options.port = UInt16(try number(flag))
            case "--parts-per-segment": options.configuration.partsPerSegment = max(1, Int(try number(flag)))
            case "--window": options.configuration.window = max(1, Int(try number(flag)))
            case "--event": options.configuration.window = nil
            case "--published": options.published = Int(try number(flag))
            case "--can-skip-until": options.configuration.canSkipUntil = Int(try number(flag))
            case "--no-skip": options.configuration.canSkipUntil = nil
            case "--skip-dateranges": options.configuration.canSkipDateRanges = true
            case "--dateranges-every": options.configuration.dateRangeEvery = max(1, Int(try number(flag)))
            case "--no-low-latency": options.configuration.lowLatency = false
            case "--media": options.media = try value(flag)
            case "--extension": options.configuration.segmentExtension = try value(flag)
            case "--log": options.log = try value(flag)
            case "--duration": options.duration = try number(flag)
            case "--max-seconds": options.maxSeconds = try number(flag)
            case "--outage": options.outages.append(try span(flag))
            case "--stall": options.stalls.append(try span(flag))
            case "--age": options.age = Int(try number(flag))
            case "--gap-every": options.configuration.gapEvery = max(1, Int(try number(flag)))
            case "--interstitial-uri":
                options.configuration.interstitialAsset = "X-ASSET-URI=\"\(try value(flag))\""
                options.configuration.interstitialEvery = options.configuration.interstitialEvery ?? 2
            case "--interstitial-every": options.configuration.interstitialEvery = max(1, Int(try number(flag)))
            case "--key-every": options.configuration.keyEvery = max(1, Int(try number(flag)))
            case "--map-every": options.configuration.mapEvery = max(1, Int(try number(flag)))
            case "--init": options.initialization = try value(flag)
            case "--url-file": options.urlFile = try value(flag)
            case "--scale": options.scale = max(1, Int(try number(flag)))
            case "--audio-media": options.audioMedia = try value(flag)
            case "--audio-codecs": options.codecs = try value(flag)
            default: throw UsageError(description: "unknown option \(flag)")
            }
        }
        return options
    }

    static func run(_ options: Options) async throws {
        var options = options
        // Real time: PROGRAM-DATE-TIME says when each part was published (one a second).
        options.configuration.epoch = Date().timeIntervalSince1970 - Double(options.published)
        let ext = options.configuration.segmentExtension
        func segments(_ folder: String) throws -> [[UInt8]] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix("." + ext) }.sorted()
                .map { Array(try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent($0))) }
        }
        let media = try options.media.map(segments) ?? []
        let log = try options.log.map { try LineLog(path: $0) }
        let perSegment = options.configuration.partsPerSegment
        let initialization = try options.initialization.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) } ?? []
        let master = """
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/live.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="\(options.codecs)",AUDIO="aud"
            live.m3u8

            """
        let files: [String: (type: String, body: [UInt8])] = options.audioMedia == nil ? [:] : ["/master.m3u8": ("application/vnd.apple.mpegurl", Array(master.utf8))]
        let origin = LiveOrigin(options.configuration, published: options.published, media: media, initialization: initialization, files: files) { published, request in
            log?.write(#"{"t":\#(now()),"answer":"\#(request)","published":\#(published),"msn":\#(published / perSegment),"part":\#(published % perSegment)}"#)
        }
        origin.setAge(options.age)
        let audio = try options.audioMedia.map { LiveOrigin(options.configuration, published: options.published, media: try segments($0)) }
        var configuration = LoopbackServer.Configuration()
        configuration.address = try LoopbackAddress(options.host)
        configuration.port = options.port
        configuration.threadCount = 2
        let responder: any HTTPResponder = audio.map { LiveOriginGroup(main: origin, folders: ["audio": $0]) } ?? origin
        let server = try LoopbackServer(configuration: configuration, responder: responder)
        defer { server.shutdown() }
        let url = "http://\(options.host):\(server.port)/\(audio == nil ? "live" : "master").m3u8"
        FileHandle.standardOutput.write(Data("live origin \(url)\n".utf8))
        if let urlFile = options.urlFile {
            // Written beside, then renamed: a reader sees the whole URL or no file.
            try Data((url + "\n").utf8).write(to: URL(fileURLWithPath: urlFile), options: .atomic)
        }
        await SignalCancellation.run { [options] in await publish([origin] + (audio.map { [$0] } ?? []), options, log: log) }
    }

    /// One part a second on the continuous clock (absolute deadlines: no drift), the faults as
    /// scheduled, ENDLIST after the duration; until cancelled or `--max-seconds`.
    static func publish(_ origins: [LiveOrigin], _ options: Options, log: LineLog?) async {
        let perSegment = options.configuration.partsPerSegment
        let clock = ContinuousClock()
        let start = clock.now
        var second = 0
        var ended = false
        while !Task.isCancelled {
            second += 1
            do { try await clock.sleep(until: start + .seconds(second) / options.scale, tolerance: .zero) } catch { return }
            let elapsed = Double(second)
            if elapsed >= options.maxSeconds { return }
            let outage = options.outages.contains { elapsed >= $0.at && elapsed < $0.at + $0.for }
            for origin in origins { origin.setOutage(outage) }
            if ended || options.stalls.contains(where: { elapsed >= $0.at && elapsed < $0.at + $0.for }) { continue }
            for origin in origins { origin.advance(parts: 1) }
            let published = origins[0].published
            log?.write(#"{"t":\#(now()),"published":\#(published),"msn":\#(published / perSegment),"part":\#(published % perSegment)}"#)
            if let duration = options.duration, elapsed >= duration {
                for origin in origins { origin.end() }
                ended = true
                log?.write(#"{"t":\#(now()),"ended":true}"#)
            }
        }
    }

    /// Wall-clock seconds since 1970, to the microsecond.
    static func now() -> String { String(format: "%.6f", Date().timeIntervalSince1970) }
}
