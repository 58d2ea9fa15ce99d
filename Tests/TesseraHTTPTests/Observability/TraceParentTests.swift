import Testing
@testable import TesseraHTTP

@Suite("TraceParent")
struct TraceParentTests {
    struct Counter: RandomNumberGenerator {
        var state: UInt64 = 0
        mutating func next() -> UInt64 { state &+= 0x9E37_79B9_7F4A_7C15; return state }
    }

    let sample = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test("the specification's example parses and prints back identically")
    func roundTrip() throws {
        let parent = try #require(TraceParent(headerValue: sample))
        #expect(parent.description == sample)
        #expect(parent.sampled)
    }

    @Test("malformed values are refused: uppercase, all-zero IDs, version ff, wrong lengths, trailing data on 00")
    func refusals() {
        for bad in [
            sample.uppercased(), "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", sample + "-extra", "", "garbage",
        ] {
            #expect(TraceParent(headerValue: bad) == nil, "\(bad)")
        }
        #expect(TraceParent(headerValue: "01" + sample.dropFirst(2) + "-future") != nil)
    }

    @Test("a child keeps the trace and flags with a new span ID; new traces are random and well-formed")
    func child() throws {
        var generator = Counter()
        let parent = try #require(TraceParent(headerValue: sample))
        let child = parent.child(using: &generator)
        #expect(child.traceID == parent.traceID && child.flags == parent.flags && child.parentID != parent.parentID)
        let fresh = TraceParent(sampled: false, using: &generator)
        #expect(TraceParent(headerValue: fresh.description) == fresh)
        #expect(!fresh.sampled && fresh.traceID.count == 16 && fresh.parentID.count == 8)
    }
}
