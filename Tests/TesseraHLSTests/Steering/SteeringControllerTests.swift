import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraPlaylist
import TesseraSupport

@Suite("Content Steering controller against a scripted steering server (mock transport, immediate clock)")
struct SteeringControllerTests {
    static let manifest = URL(string: "https://steer.example/manifest.json?session=1")!
    static func requestURL(_ pathway: String) -> URL { URL(string: "https://steer.example/manifest.json?session=1&_HLS_pathway=\(pathway)")! }
    static let good = Array("{\"VERSION\":1,\"TTL\":60,\"PATHWAY-PRIORITY\":[\"B\",\"A\"]}".utf8)

    final class Events: Sendable {
        private let all = Lock<[SteeringEvent]>([])
        func add(_ event: SteeringEvent) { all.withLock { $0.append(event) } }
        var events: [SteeringEvent] { all.withLock { $0 } }
    }

    static func controller(_ mock: MockTransport, events: Events, serverURI: String = manifest.absoluteString) throws -> SteeringController {
        var playlist = try SteeringStateTests.multivariant()
        playlist.contentSteering?.serverURI = serverURI
        let state = try SteeringState(multivariant: playlist, url: SteeringStateTests.url, steering: playlist.contentSteering!)
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        let client = HLSClient(transport: mock, configuration: configuration, clock: ImmediateClock())
        return SteeringController(state: state, url: SteeringStateTests.url, client: client) { events.add($0) }
    }

    @Test("429 waits Retry-After and then the next manifest is applied")
    func throttled() async throws {
        let mock = MockTransport()
        mock.stub(Self.requestURL("A"), .response(status: 429, headers: ["Retry-After": "7"], chunks: []))
        mock.stub(Self.requestURL("A"), .ok(Self.good))
        let events = Events()
        let controller = try Self.controller(mock, events: events)
        await controller.requestManifest()
        let next = await controller.state.nextRequest
        #expect(next == .seconds(7) && events.events.first == .throttled(wait: 7))
        await controller.requestManifest()
        #expect(await controller.current == "B")
        #expect(events.events.contains(.switched(from: "A", to: "B", reason: "the manifest's priority")))
        #expect(mock.requests.allSatisfy { $0.purpose == .steeringManifest })
    }

    @Test("410 ends steering: no further request, the last pathway stays; run() returns")
    func gone() async throws {
        let mock = MockTransport()
        mock.stub(Self.requestURL("A"), .ok(Array("{\"VERSION\":1,\"TTL\":1,\"PATHWAY-PRIORITY\":[\"A\",\"B\"]}".utf8)))
        mock.stub(Self.requestURL("A"), .response(status: 410, chunks: []))
        let events = Events()
        let controller = try Self.controller(mock, events: events)
        await controller.run()
        let ended = await controller.state.isEnded
        #expect(mock.requests.count == 2 && events.events.last == .ended && ended)
        await controller.requestManifest()
        #expect(mock.requests.count == 2)
    }

    @Test("garbage JSON and a 5xx keep the previous state and retry after the TTL")
    func garbage() async throws {
        let mock = MockTransport()
        mock.stub(Self.requestURL("A"), .ok(Self.good))
        mock.stub(Self.requestURL("B"), .ok(Array("<html>oops</html>".utf8)))
        mock.stub(Self.requestURL("B"), .response(status: 503, chunks: []))
        let events = Events()
        let controller = try Self.controller(mock, events: events)
        await controller.requestManifest()
        await controller.requestManifest()
        await controller.requestManifest()
        let (current, priority) = (await controller.current, await controller.state.priority)
        #expect(current == "B" && priority == ["B", "A"])
        guard case .rejected = events.events[2] else { Issue.record("\(events.events)"); return }
        #expect(events.events.last == .failed(reason: "HTTP 503", retryIn: 60))
    }

    @Test("a data: SERVER-URI is read in place, without query parameters or requests")
    func inline() async throws {
        let mock = MockTransport()
        let body = Data("{\"VERSION\":1,\"TTL\":30,\"PATHWAY-PRIORITY\":[\"B\"]}".utf8).base64EncodedString()
        let events = Events()
        let controller = try Self.controller(mock, events: events, serverURI: "data:application/vnd.apple.steering-list;base64,\(body)")
        await controller.requestManifest()
        let current = await controller.current
        #expect(current == "B" && mock.requests.isEmpty)
    }

    @Test("a data: SERVER-URI that cannot be decoded is a rejection, not an empty manifest")
    func badInline() async throws {
        let events = Events()
        let controller = try Self.controller(MockTransport(), events: events, serverURI: "data:application/json;base64,%%%")
        await controller.requestManifest()
        #expect(events.events == [.rejected(reason: "The data: SERVER-URI is malformed or over 65536 bytes.")])
        let next = await controller.state.nextRequest
        #expect(next == .seconds(300))
    }

    @Test("a failed pathway moves the session to the next one")
    func failover() async throws {
        let events = Events()
        let controller = try Self.controller(MockTransport(), events: events)
        #expect(await controller.pathwayFailed("A") == "B")
        #expect(events.events.first == .penalized(pathway: "A", until: 300))
    }
}
