import Testing
@testable import TesseraPlayback

@Suite("RangeResolution")
struct RangeResolutionTests {
    @Test("single bytes= ranges resolve as RFC 9110 §14.1.2 says", arguments: [
        ("bytes=0-99", 1000, RangeResolution.partial(offset: 0, length: 100)),
        ("bytes=900-", 1000, .partial(offset: 900, length: 100)),
        ("bytes=0-", 1000, .partial(offset: 0, length: 1000)),
        ("bytes=990-2000", 1000, .partial(offset: 990, length: 10)),
        ("bytes=-100", 1000, .partial(offset: 900, length: 100)),
        ("bytes=-5000", 1000, .partial(offset: 0, length: 1000)),
        ("bytes=1000-", 1000, .unsatisfiable),
        ("bytes=1000-1001", 1000, .unsatisfiable),
        ("bytes=-0", 1000, .unsatisfiable),
        ("bytes=0-", 0, .unsatisfiable),
    ] as [(String, UInt64, RangeResolution)])
    func single(header: String, size: UInt64, expected: RangeResolution) {
        #expect(RangeResolution(header: header, size: size) == expected)
    }

    @Test("garbage, other units, reversed and multiple ranges are ignored (200 with the whole body)", arguments: [
        "bytes=5-1", "items=0-1", "bytes=", "bytes=a-b", "bytes=0-1,5-6", "bytes=--1", "bytes=99999999999999999999-",
    ])
    func ignored(header: String) {
        #expect(RangeResolution(header: header, size: 1000) == .whole)
    }

    @Test("no header means the whole body")
    func none() {
        #expect(RangeResolution(header: nil, size: 10) == .whole)
    }
}
