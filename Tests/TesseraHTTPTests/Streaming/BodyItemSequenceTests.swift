import Foundation
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("BodyItemSequence")
struct BodyItemSequenceTests {
    let url = URL(string: "https://api.example/events")!

    private func body(_ chunks: [String], failure: HTTPError? = nil) async throws -> HTTPBody {
        let mock = MockTransport()
        mock.stub(url, .response(status: 200, headers: ["Content-Type": "text/event-stream"], chunks: chunks.map { Array($0.utf8) }, failure: failure))
        return try await mock.send(HTTPRequest(url: url)).body
    }

    @Test("events come out in order across chunk boundaries, losslessly")
    func lossless() async throws {
        let sequence = ServerSentEventSequence(body: try await body(["data: a\n\nda", "ta: b\n", "\nid: 3\ndata: c\n\n"]), decoder: ServerSentEventDecoder())
        var data: [String] = []
        for try await event in sequence { data.append(event.data) }
        #expect(data == ["a", "b", "c"])
    }

    @Test("a transfer failure mid-stream reaches the consumer after the events before it")
    func failure() async throws {
        let sequence = ServerSentEventSequence(body: try await body(["data: a\n\n"], failure: HTTPError(.connectionLost, code: HTTPError.Code("partial-body"), "cut")), decoder: ServerSentEventDecoder())
        var data: [String] = []
        do {
            for try await event in sequence { data.append(event.data) }
            Issue.record("no error")
        } catch {
            #expect(error.code == HTTPError.Code("partial-body"))
        }
        #expect(data == ["a"])
    }

    @Test("latest(capacity:) keeps only the newest undelivered events")
    func latest() async throws {
        let chunks = (1...10).map { "data: \($0)\n\n" }
        let stream = ServerSentEventSequence(body: try await body(chunks), decoder: ServerSentEventDecoder()).latest(capacity: 2)
        var data: [String] = []
        for try await event in stream { data.append(event.data) }
        #expect(data.last == "10")
        #expect(data.count >= 2 && data.count <= 10)
        #expect(data == data.sorted { Int($0)! < Int($1)! })
    }

    @Test("latest(capacity:) ends with the body's error instead of hiding it")
    func latestFailure() async throws {
        let body = try await body(["data: a\n\n"], failure: HTTPError(.connectionLost, code: HTTPError.Code("partial-body"), "cut"))
        var data: [String] = []
        do {
            for try await event in ServerSentEventSequence(body: body, decoder: ServerSentEventDecoder()).latest(capacity: 4) {
                data.append(event.data)
            }
            Issue.record("the failure was hidden")
        } catch {
            #expect((error as? HTTPError)?.code == HTTPError.Code("partial-body"))
        }
        #expect(data == ["a"])
    }

    @Test("NDJSON records stream the same way, the last one without a newline included")
    func ndjson() async throws {
        struct Item: Decodable, Equatable { let n: Int }
        let records = NDJSONRecordSequence(body: try await body(["{\"n\":1}\n{\"n\"", ":2}\n\n{\"n\":3}"]), decoder: NDJSONLineDecoder())
        var items: [Item] = []
        for try await record in records { items.append(try JSONDecoder().decode(Item.self, from: Data(record))) }
        #expect(items == [Item(n: 1), Item(n: 2), Item(n: 3)])
    }
}
