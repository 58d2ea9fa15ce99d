import Testing
@testable import TesseraHTTP

@Suite("RetryAfter")
struct RetryAfterTests {
    let now: Int64 = 784_111_777   // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("delay-seconds and the three HTTP-date formats of RFC 9110 §5.6.7 parse to the same instant")
    func formats() {
        #expect(RetryAfter(headerValue: "120", now: now) == .seconds(120))
        #expect(RetryAfter(headerValue: " 7 ", now: now) == .seconds(7))
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryAfter(headerValue: text, now: now) == .date(secondsSince1970: now), "\(text)")
        }
    }

    @Test("a date in the past means no wait; a future date waits the difference")
    func delays() throws {
        let later = try #require(RetryAfter(headerValue: "Sun, 06 Nov 1994 08:50:37 GMT", now: now))
        #expect(later.delay(now: now) == .seconds(60))
        #expect(later.delay(now: now + 3600) == .zero)
    }

    @Test("RFC 850 two-digit years are read against the current date, never more than 50 years ahead")
    func twoDigitYears() {
        let in2026: Int64 = 1_767_225_600   // 2026-01-01
        #expect(HTTPDate.year(of: in2026) == 2026 && HTTPDate.year(of: now) == 1994)
        #expect(HTTPDate.secondsSince1970("Tuesday, 01-Jan-70 00:00:00 GMT", now: in2026).map(HTTPDate.year(of:)) == 2070)
        #expect(HTTPDate.secondsSince1970("Friday, 01-Jan-27 00:00:00 GMT", now: in2026).map(HTTPDate.year(of:)) == 2027)
        #expect(HTTPDate.secondsSince1970("Saturday, 01-Jan-77 00:00:00 GMT", now: in2026).map(HTTPDate.year(of:)) == 1977)
        #expect(HTTPDate.secondsSince1970("Monday, 01-Jan-80 00:00:00 GMT", now: in2026).map(HTTPDate.year(of:)) == 1980)
    }

    @Test("anything else is not a Retry-After value", arguments: ["", "soon", "-5", "1.5", "Sun, 06 Nov 1994 25:00:00 GMT",
                                                                  "Sun, 06 Foo 1994 08:49:37 GMT", "99999999999999999999999",
                                                                  // signed or long fields (-0000000100 once overflowed the seconds)
                                                                  "Sun, 06 Nov 1994 -9223372036854775807:00:00 GMT", "Sun, 06 Nov 1994 08:-1:37 GMT",
                                                                  "Sun, 06 Nov 1994 008:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov +994 08:49:37 GMT",
                                                                  "Sunday, 06-Nov--4 08:49:37 GMT", "Sun Nov -6 08:49:37 1994", "Sun, 06 Nov 1994 08:49 GMT"])
    func invalid(text: String) {
        #expect(RetryAfter(headerValue: text, now: now) == nil)
    }
}
