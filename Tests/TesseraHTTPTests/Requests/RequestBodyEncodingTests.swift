import Testing
@testable import TesseraHTTP

@Suite("Request body encodings")
struct RequestBodyEncodingTests {
    @Test("form bodies: space as +, reserved bytes and UTF-8 percent-encoded, order and repeats kept")
    func form() {
        let body = FormURLEncoded.encode([("a b", "x&y=z"), ("a b", "€*-._~")])
        #expect(String(decoding: body, as: UTF8.self) == "a+b=x%26y%3Dz&a+b=%E2%82%AC*-._%7E")
    }

    @Test("multipart: parts in order with names escaped, file names and types, closing delimiter")
    func multipart() throws {
        var body = try MultipartBody(boundary: "XyZ")
        body.parts.append(.init(name: "meta\"1", bytes: Array("{}".utf8)))
        body.parts.append(.init(name: "file", fileName: "a\r\nb.ts", contentType: "video/mp2t", bytes: [0x47, 0x00]))
        let text = String(decoding: try body.encode(), as: UTF8.self)
        #expect(text == "--XyZ\r\nContent-Disposition: form-data; name=\"meta%221\"\r\n\r\n{}\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a%0D%0Ab.ts\"\r\nContent-Type: video/mp2t\r\n\r\n\u{47}\u{0}\r\n--XyZ--\r\n")
        #expect(body.contentType == "multipart/form-data; boundary=\"XyZ\"")
    }

    @Test("bad boundaries and content that contains the delimiter are typed errors")
    func refusals() throws {
        for bad in ["", String(repeating: "a", count: 71), "a b ", "semi;colon"] {
            #expect(throws: HTTPError.self) { _ = try MultipartBody(boundary: bad) }
        }
        let clash = try MultipartBody(boundary: "B", parts: [.init(name: "x", bytes: Array("ok\r\n--B--".utf8))])
        #expect(throws: HTTPError.self) { _ = try clash.encode() }
        let atStart = try MultipartBody(boundary: "B", parts: [.init(name: "x", bytes: Array("--B".utf8))])
        #expect(throws: HTTPError.self) { _ = try atStart.encode() }
        #expect(MultipartBody().boundary.hasPrefix("tessera-"))
    }
}
