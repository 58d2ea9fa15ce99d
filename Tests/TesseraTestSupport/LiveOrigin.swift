import Foundation
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// A Low-Latency HLS origin for tests, scripts and the benchmark, on the loopback server: a live
/// media playlist (`LiveOriginPlaylist`) at `/live.m3u8` whose parts and segments appear when
/// the caller says (`advance(parts:)`: a test's manual clock, or `LiveOriginClock` in real
/// time). Blocking reloads (`_HLS_msn`, `_HLS_part`) are parked until what they ask for is
/// published and answered 400 past the advance limits (§6.2.5.2); `_HLS_skip` gets a delta
/// update that skips the segments older than CAN-SKIP-UNTIL (`v2`: their Date Ranges too);
/// `end()` publishes EXT-X-ENDLIST (and answers every parked request). Faults: an outage
/// (503 to everything, parked requests included), an unresponsive origin (blocking requests
/// never answered), edge regression (the next answers come from an older copy), a stale `Age`
/// header; a stall is simply not advancing. Media: the `media` segments, cycled, at
/// `s<msn>.<ext>` (AES-128 encrypted with rotating keys at `key-<n>.bin` when the configuration
/// says; never for an EXT-X-GAP segment) and their parts (equal 188-byte-aligned slices of the
/// clear segment) at `s<msn>.p<i>.<ext>`; the `initialization` section at every `init-<n>.mp4`;
/// `files` serves fixed bodies (a multivariant playlist, a steering manifest) at their paths.
public final class LiveOrigin: HTTPResponder, Sendable {
    private struct Parked {
        let needed: Int
        let request: ParkedRequest
        let skip: Skip?
        let target: String
        /// A hinted part's path (answered with its media, not the playlist).
        var media: String?
    }

    private enum Skip { case yes, v2 }

    private struct State {
        var published: Int
        var ended = false
        var outage = false
        var unresponsive = false
        var age: Int?
        /// (parts behind, answers left).
        var regression: (parts: Int, answers: Int)?
        var parked: [Parked] = []
        var log: [String] = []
        /// Segments answered with an error status instead of their media, and the status.
        var refused: (segments: Set<Int>, status: Int) = ([], 404)
        /// Segments whose parts are answered 404.
        var refusedParts: Set<Int> = []
        /// Segments served this many bytes short, the HTTP framing right (a packager that wrote them cut).
        var shortened: (segments: Set<Int>, bytes: Int) = ([], 0)
        /// A blocking request for the next part publishes it while fewer than this many are out.
        var onDemand: Int?
    }

    /// What it publishes.
    public let renderer: LiveOriginPlaylist
    /// Parts per segment (EXT-X-TARGETDURATION, seconds).
    public var partsPerSegment: Int { renderer.configuration.partsPerSegment }
    private let media: [[UInt8]]
    private let initialization: [UInt8]
    private let files: [String: (type: String, body: [UInt8])]
    private let state: Lock<State>
    private let onAnswer: @Sendable (_ published: Int, _ request: String) -> Void

    /// An origin with `published` parts already out, publishing as `configuration` says; `media`
    /// the segment bodies served (none: media paths answer 404); `files` path → (content type,
    /// body); `onAnswer` hears each playlist answer as it is sent (the parts it shows, and the
    /// request's path and query) and each media request (the parts published then).
    public init(_ configuration: LiveOriginPlaylist.Configuration = .init(), published: Int = 8, media: [[UInt8]] = [],
                initialization: [UInt8] = [], files: [String: (type: String, body: [UInt8])] = [:],
                onAnswer: @escaping @Sendable (_ published: Int, _ request: String) -> Void = { _, _ in }) {
        renderer = LiveOriginPlaylist(configuration)
        self.media = media
        self.initialization = initialization
        self.files = files
        self.onAnswer = onAnswer
        state = Lock(State(published: published))
    }

    /// An origin of the default configuration but for CAN-SKIP-UNTIL.
    public convenience init(canSkipUntil: Int?, published: Int = 8) {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.canSkipUntil = canSkipUntil
        self.init(configuration, published: published)
    }

    /// The requests a log keeps (an origin run for hours by a script drops the oldest).
    public static let maximumLog = 100_000

    /// Every request's path and query, in order (the last `maximumLog`).
    public var log: [String] { state.withLock { $0.log } }

    /// Parts published so far.
    public var published: Int { state.withLock { $0.published } }

    /// Publishes `parts` more parts and answers the parked requests they satisfy.
    public func advance(parts: Int = 1) {
        let ready = state.withLock { state -> [Parked] in
            state.published += parts
            let published = state.published
            let (now, later) = (state.parked.filter { $0.needed <= published }, state.parked.filter { $0.needed > published })
            state.parked = later
            return now
        }
        for item in ready { answer(item) }
    }

    private func answer(_ item: Parked) {
        if let media = item.media {
            item.request.complete(mediaResponse(media, published: published))
        } else {
            item.request.complete(response(skip: item.skip, for: item.target))
        }
    }

    /// A blocking reload that asks for the part after the last one published publishes it at
    /// once while fewer than `parts` are published (nil: never): the client sees every part as it
    /// appears, one reload each, as fast as it asks — and no further ahead than the caller lets
    /// it (raise it as the client goes; a reload waiting at the old ceiling is answered).
    public func publishOnDemand(through parts: Int?) {
        let waiting = state.withLock { state -> Bool in
            state.onDemand = parts
            guard let parts, state.published < parts else { return false }
            return state.parked.contains { $0.media == nil && $0.needed == state.published + 1 }
        }
        if waiting { advance() }
    }

    /// Answers 404 to every part of each segment in `segments` (the segments themselves are served).
    public func refuse(partsOf segments: Set<Int>) { state.withLock { $0.refusedParts = segments } }

    /// Completes the segment being built and publishes EXT-X-ENDLIST; every parked request gets
    /// the final playlist.
    public func end() {
        let parked = state.withLock { state -> [Parked] in
            state.ended = true
            let perSegment = renderer.configuration.partsPerSegment
            state.published = (state.published + perSegment - 1) / perSegment * perSegment
            defer { state.parked = [] }
            return state.parked
        }
        for item in parked { answer(item) }
    }

    /// Answers 503 to everything while true, the requests parked now included.
    public func setOutage(_ outage: Bool) {
        let parked = state.withLock { state -> [Parked] in
            state.outage = outage
            guard outage else { return [] }
            defer { state.parked = [] }
            return state.parked
        }
        for item in parked { item.request.complete(.status(503)) }
    }

    /// While true, blocking requests are parked and never answered (until the server's limit):
    /// what the client's blocking timeout is for.
    public func setUnresponsive(_ unresponsive: Bool) { state.withLock { $0.unresponsive = unresponsive } }

    /// Answers `status` instead of the media for each segment in `segments` (listed as usual:
    /// an origin that lost them, or a CDN that cannot reach it).
    public func refuse(segments: Set<Int>, status: Int = 404) { state.withLock { $0.refused = (segments, status) } }

    /// Serves each segment in `segments` `bytes` short, its length announced as sent (a file
    /// written cut short at the origin).
    public func shorten(segments: Set<Int>, by bytes: Int) { state.withLock { $0.shortened = (segments, bytes) } }

    /// Sends `Age: seconds` on every playlist answer (nil: none), as a cache in front would.
    public func setAge(_ seconds: Int?) { state.withLock { $0.age = seconds } }

    /// The next `answers` playlist answers are the copy of `segments` segments ago (a cache
    /// behind the origin, or an origin that restarted).
    public func regress(segments: Int, answers: Int) {
        state.withLock { $0.regression = (segments * partsPerSegment, answers) }
    }

    public func reply(to request: ServerRequest) -> ServerReply {
        let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        let target = request.path + (query.isEmpty ? "" : "?" + query)
        let (ended, outage, unresponsive, published) = state.withLock { state -> (Bool, Bool, Bool, Int) in
            if state.log.count >= Self.maximumLog { state.log.removeFirst(Self.maximumLog / 10) }
            state.log.append(target)
            return (state.ended, state.outage, state.unresponsive, state.published)
        }
        if outage { return .response(.status(503)) }
        if let file = files[request.path] {
            return .response(ServerResponse(status: 200, headers: ["Content-Type": file.type, "Cache-Control": "no-cache"], body: .bytes(file.body)))
        }
        guard request.path == "/live.m3u8" else {
            onAnswer(published, target)
            let refused = state.withLock { $0.refused }
            let ext = "." + renderer.configuration.segmentExtension
            if request.path.hasPrefix("/s"), request.path.hasSuffix(ext), let msn = Int(request.path.dropFirst(2).dropLast(ext.count)),
               refused.segments.contains(msn) {
                return .response(.status(refused.status))
            }
            if let (msn, index) = part(request.path) {
                if state.withLock({ $0.refusedParts.contains(msn) }) { return .response(.status(404)) }
                // The hinted part (the next one) is answered once it is published (§6.2.6).
                let needed = msn * partsPerSegment + index + 1
                if needed == published + 1, renderer.configuration.lowLatency, !ended {
                    let path = request.path
                    return .park(expiry: .seconds(3 * partsPerSegment)) { [state] parked in
                        let now = state.withLock { state -> Bool in
                            guard state.published < needed, !state.ended, !state.outage else { return true }
                            state.parked.append(Parked(needed: needed, request: parked, skip: nil, target: path, media: path))
                            return false
                        }
                        if now { parked.complete(self.mediaResponse(path, published: self.published)) }
                    }
                }
            }
            return .response(mediaResponse(request.path, published: published))
        }
        let skip: Skip? = request.queryValue("_HLS_skip").flatMap { value in
            guard renderer.configuration.canSkipUntil != nil else { return nil }
            return value == "v2" && renderer.configuration.canSkipDateRanges ? .v2 : .yes
        }
        guard renderer.configuration.lowLatency, !ended, let msnText = request.queryValue("_HLS_msn"), let msn = Int(msnText) else {
            if request.queryValue("_HLS_part") != nil, request.queryValue("_HLS_msn") == nil { return .response(.status(400)) }
            return .response(response(skip: skip, for: target))
        }
        let perSegment = partsPerSegment
        let lastMSN = published / perSegment - 1
        var part = request.queryValue("_HLS_part").flatMap { Int($0) }
        var segment = msn
        if let index = part, index >= perSegment { (segment, part) = (msn + 1, 0) }
        guard segment <= lastMSN + 2, (part ?? 0) <= perSegment + 3 else { return .response(.status(400)) }
        let needed = part.map { segment * perSegment + $0 + 1 } ?? (segment + 1) * perSegment
        if needed == published + 1, state.withLock({ state in state.onDemand.map { state.published < $0 } ?? false }) {
            advance()
            return .response(response(skip: skip, for: target))
        }
        if needed <= published, !unresponsive { return .response(response(skip: skip, for: target)) }
        // A conforming origin answers 503 after three target durations (§6.2.5.2); an
        // unresponsive one holds the request far past the client's limit.
        return .park(expiry: .seconds((unresponsive ? 30 : 3) * perSegment)) { [state] parked in
            // Re-checked under the lock: what changed since `reply` looked is not missed.
            let (now, publish) = state.withLock { state -> (ServerResponse??, Bool) in
                if state.outage { return (.some(.status(503)), false) }
                guard state.published < needed || state.unresponsive, !state.ended else { return (.some(nil), false) }
                if !state.unresponsive { state.parked.append(Parked(needed: needed, request: parked, skip: skip, target: target)) }
                // The on-demand ceiling raised since `reply` looked: publish for it now.
                return (.none, needed == state.published + 1 && !state.unresponsive && state.onDemand.map { state.published < $0 } ?? false)
            }
            if let now { parked.complete(now ?? self.response(skip: skip, for: target)) }
            if publish { self.advance() }
        }
    }

    /// The playlist as published now (or as a regression says), a delta update with `skip`.
    private func response(skip: Skip?, for target: String) -> ServerResponse {
        let (published, ended, age) = state.withLock { state -> (Int, Bool, Int?) in
            var published = state.published
            if let regression = state.regression {
                published = max(0, published - regression.parts)
                state.regression = regression.answers > 1 ? (regression.parts, regression.answers - 1) : nil
            }
            return (published, state.ended, state.age)
        }
        var headers: ResponseHeaders = ["Content-Type": "application/vnd.apple.mpegurl", "Cache-Control": "no-cache"]
        if let age { headers.set("Age", String(age)) }
        let text = renderer.text(published: published, ended: ended, skip: skip != nil, skipDateRanges: skip == .v2)
        onAnswer(published, target)
        return ServerResponse(status: 200, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// The playlist text after `published` parts.
    public func playlist(published: Int, ended: Bool, skip: Bool) -> String {
        renderer.text(published: published, ended: ended, skip: skip)
    }

    /// The segment and part index a part's path names (`/s<msn>.p<i>.<ext>`).
    private func part(_ path: String) -> (msn: Int, index: Int)? {
        let ext = "." + renderer.configuration.segmentExtension
        guard path.hasPrefix("/s"), path.hasSuffix(ext) else { return nil }
        let name = path.dropFirst(2).dropLast(ext.count).split(separator: ".", omittingEmptySubsequences: false)
        guard name.count == 2, name[1].hasPrefix("p"), let msn = Int(name[0]), let index = Int(name[1].dropFirst()) else { return nil }
        return (msn, index)
    }

    /// A published segment or part of the media (encrypted when the origin encrypts), a key, a
    /// map, else 404. EXT-X-GAP segments are never served.
    private func mediaResponse(_ path: String, published: Int) -> ServerResponse {
        if path.hasPrefix("/key-"), path.hasSuffix(".bin"), let index = Int(path.dropFirst(5).dropLast(4)), index >= 0 {
            return ServerResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .bytes(LiveOriginPlaylist.key(index)))
        }
        if path.hasPrefix("/init-"), path.hasSuffix(".mp4"), !initialization.isEmpty {
            return ServerResponse(status: 200, headers: ["Content-Type": "video/mp4"], body: .bytes(initialization))
        }
        let ext = "." + renderer.configuration.segmentExtension
        guard !media.isEmpty, path.hasPrefix("/s"), path.hasSuffix(ext) else { return .status(404) }
        let name = path.dropFirst(2).dropLast(ext.count).split(separator: ".", omittingEmptySubsequences: false)
        guard let msn = name.first.flatMap({ Int($0) }), msn >= 0 else { return .status(404) }
        let segment = media[msn % media.count]
        let headers: ResponseHeaders = ["Content-Type": ext == ".ts" ? "video/mp2t" : "video/mp4"]
        if name.count == 1 {
            guard (msn + 1) * partsPerSegment <= published, !renderer.isGap(msn) else { return .status(404) }
            let shortened = state.withLock { $0.shortened }
            let segment = shortened.segments.contains(msn) ? Array(segment.dropLast(shortened.bytes)) : segment
            guard let (key, iv) = renderer.encryption(of: msn) else { return ServerResponse(status: 200, headers: headers, body: .bytes(segment)) }
            return ServerResponse(status: 200, headers: headers, body: .bytes(AES128CBCEncryption.encrypt(segment, key: key, iv: iv)))
        }
        guard name.count == 2, name[1].hasPrefix("p"), let index = Int(name[1].dropFirst()), index >= 0, index < partsPerSegment,
              msn * partsPerSegment + index < published else { return .status(404) }
        let packets = segment.count / 188
        let slice = packets / partsPerSegment
        let start = index * slice * 188
        let end = index == partsPerSegment - 1 ? segment.count : (index + 1) * slice * 188
        return ServerResponse(status: 200, headers: headers, body: .bytes(Array(segment[start..<end])))
    }
}
