import Foundation
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// A Low-Latency HLS origin for tests, on the loopback server: a live media playlist whose parts
/// and segments appear when the test says (`advance(parts:)`, never a timer): `partsPerSegment`
/// parts of one second make a segment; the playlist lists the last `window` segments (the last
/// two with their parts), the parts of the segment being built and a PRELOAD-HINT for the next.
/// Blocking reloads (`_HLS_msn`, `_HLS_part`) are parked until what they ask for is published,
/// and answered 400 past the advance limits (§6.2.5.2); `_HLS_skip` gets a delta update that
/// skips the segments older than CAN-SKIP-UNTIL; `end()` publishes EXT-X-ENDLIST (and answers
/// every parked request); an outage answers 503 to everything, parked requests included. Media
/// is not served.
public final class LiveOrigin: HTTPResponder, Sendable {
    private struct Parked {
        let needed: Int
        let request: ParkedRequest
        let skip: Bool
    }

    private struct State {
        var published: Int
        var ended = false
        var outage = false
        var parked: [Parked] = []
        var log: [String] = []
    }

    /// EXT-X-TARGETDURATION, seconds (= parts per segment: parts are one second).
    public let partsPerSegment: Int
    /// Segments listed.
    public let window: Int
    /// CAN-SKIP-UNTIL, seconds (nil: no delta updates).
    public let canSkipUntil: Int?
    private let state: Lock<State>

    /// An origin with `published` parts already out.
    public init(partsPerSegment: Int = 4, window: Int = 6, canSkipUntil: Int? = 12, published: Int = 8) {
        self.partsPerSegment = partsPerSegment
        self.window = window
        self.canSkipUntil = canSkipUntil
        state = Lock(State(published: published))
    }

    /// Every request's path and query, in order.
    public var log: [String] { state.withLock { $0.log } }

    /// Publishes `parts` more parts and answers the parked requests they satisfy.
    public func advance(parts: Int = 1) {
        let ready = state.withLock { state -> [(ParkedRequest, Bool)] in
            state.published += parts
            let published = state.published
            let (now, later) = (state.parked.filter { $0.needed <= published }, state.parked.filter { $0.needed > published })
            state.parked = later
            return now.map { ($0.request, $0.skip) }
        }
        for (request, skip) in ready { request.complete(response(skip: skip)) }
    }

    /// Publishes EXT-X-ENDLIST; every parked request gets the final playlist.
    public func end() {
        let parked = state.withLock { state -> [Parked] in
            state.ended = true
            defer { state.parked = [] }
            return state.parked
        }
        for item in parked { item.request.complete(response(skip: false)) }
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

    public func reply(to request: ServerRequest) -> ServerReply {
        let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        let (ended, outage, published) = state.withLock { state -> (Bool, Bool, Int) in
            state.log.append(request.path + (query.isEmpty ? "" : "?" + query))
            return (state.ended, state.outage, state.published)
        }
        if outage { return .response(.status(503)) }
        let skip = request.queryValue("_HLS_skip") != nil && canSkipUntil != nil
        guard !ended, let msnText = request.queryValue("_HLS_msn"), let msn = Int(msnText) else {
            if request.queryValue("_HLS_part") != nil, request.queryValue("_HLS_msn") == nil { return .response(.status(400)) }
            return .response(response(skip: skip))
        }
        let lastMSN = published / partsPerSegment - 1
        var part = request.queryValue("_HLS_part").flatMap { Int($0) }
        var segment = msn
        if let index = part, index >= partsPerSegment { (segment, part) = (msn + 1, 0) }
        guard segment <= lastMSN + 2, (part ?? 0) <= partsPerSegment + 3 else { return .response(.status(400)) }
        let needed = part.map { segment * partsPerSegment + $0 + 1 } ?? (segment + 1) * partsPerSegment
        if needed <= published { return .response(response(skip: skip)) }
        return .park(expiry: .seconds(3 * partsPerSegment)) { [state] parked in
            let now = state.withLock { state -> Bool in
                guard state.published < needed, !state.ended else { return true }
                state.parked.append(Parked(needed: needed, request: parked, skip: skip))
                return false
            }
            if now { parked.complete(self.response(skip: skip)) }
        }
    }

    /// The playlist as published now, a delta update with `skip`.
    private func response(skip: Bool) -> ServerResponse {
        let (published, ended) = state.withLock { ($0.published, $0.ended) }
        return ServerResponse(status: 200, headers: ["Content-Type": "application/vnd.apple.mpegurl", "Cache-Control": "no-cache"],
                              body: .bytes(Array(playlist(published: published, ended: ended, skip: skip).utf8)))
    }

    /// The playlist text after `published` parts.
    public func playlist(published: Int, ended: Bool, skip: Bool) -> String {
        let complete = published / partsPerSegment
        let pending = ended ? 0 : published % partsPerSegment
        let first = max(0, complete - window)
        var lines = ["#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:\(partsPerSegment)"]
        var control = "CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0"
        if let canSkipUntil { control += ",CAN-SKIP-UNTIL=\(canSkipUntil).0" }
        lines += ["#EXT-X-SERVER-CONTROL:\(control)", "#EXT-X-PART-INF:PART-TARGET=1.0", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        var listedFrom = first
        if skip, let canSkipUntil {
            let keep = max(1, canSkipUntil / partsPerSegment)
            let skipped = max(0, complete - first - keep)
            if skipped > 0 {
                lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)")
                listedFrom = first + skipped
            }
        }
        for msn in listedFrom..<complete {
            if msn >= complete - 2 {
                for index in 0..<partsPerSegment { lines.append("#EXT-X-PART:DURATION=1.0,URI=\"s\(msn).p\(index).mp4\"\(index == 0 ? ",INDEPENDENT=YES" : "")") }
            }
            lines += ["#EXTINF:\(partsPerSegment).0,", "s\(msn).mp4"]
        }
        for index in 0..<pending { lines.append("#EXT-X-PART:DURATION=1.0,URI=\"s\(complete).p\(index).mp4\"\(index == 0 ? ",INDEPENDENT=YES" : "")") }
        if ended {
            lines.append("#EXT-X-ENDLIST")
        } else {
            lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s\(complete).p\(pending).mp4\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
