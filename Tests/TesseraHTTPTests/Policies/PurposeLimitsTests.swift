import Foundation
import Testing
import TesseraHTTP

@Suite("PurposeLimits and ScopedHeaders")
struct PurposeLimitsTests {
    @Test("a purpose's entry sets the times and caps the byte bounds; other purposes keep the request's limits")
    func apply() {
        var request = TransferLimits()
        request.maximumBodyBytes = 1000
        let limits = PurposeLimits.hls
        let segment = limits.apply(to: request, purpose: .segment)
        #expect(segment.lowSpeedBytesPerSecond == 1024 && segment.lowSpeedWindow == .seconds(20))
        #expect(segment.maximumBodyBytes == 1000)
        let key = limits.apply(to: TransferLimits(), purpose: .key)
        #expect(key.maximumBodyBytes == 4096 && key.timeToFirstByte == .seconds(10))
        #expect(limits.apply(to: request, purpose: .general) == request)
        var mine = PurposeLimits()
        var slow = TransferLimits()
        slow.timeToFirstByte = .seconds(120)
        mine[.segment] = slow
        let filled = mine.filling(from: .hls)
        #expect(filled[.segment]?.timeToFirstByte == .seconds(120) && filled[.key] == PurposeLimits.hls[.key])
    }

    @Test("every playlist, key, steering manifest and session data has a low-speed floor and a deadline per attempt")
    func smallResourcesBounded() {
        for purpose in PurposeLimits.smallResources {
            let limits = PurposeLimits.hls.apply(to: TransferLimits(), purpose: purpose)
            #expect(limits.lowSpeedBytesPerSecond == 1024 && limits.lowSpeedWindow == .seconds(10), "\(purpose)")
            #expect(limits.total == (purpose == .key ? .seconds(10) : .seconds(30)), "\(purpose)")
        }
        #expect(PurposeLimits.hls.apply(to: TransferLimits(), purpose: .segment).total == nil, "media has its floor, and a deadline by size")
    }

    @Test("header fields go to the entry's origin and the hosts named, never elsewhere")
    func scoped() async throws {
        let scoped = ScopedHeaders(headers: ["Authorization": "Bearer t"], entry: URL(string: "https://cdn.example/v/index.m3u8")!,
                                   hosts: ["Keys.Example"])
        for (url, expected) in [("https://cdn.example:443/v/seg.ts", true), ("https://keys.example/k", true),
                                ("http://cdn.example/v/seg.ts", false), ("https://cdn.example:8443/x", false),
                                ("https://other.example/x", false), ("https://cdn.example.evil/x", false)] {
            var request = HTTPRequest(url: URL(string: url)!)
            try await scoped.intercept(&request)
            #expect((request.headers["Authorization"] == "Bearer t") == expected, "\(url)")
        }
    }
}
