extension HTTPHeaders {
    /// RFC 9110 token characters (field names, subprotocol names).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// Refuses a field that would not go on the wire as one field: a name that is not a token,
    /// or a value holding CR, LF or NUL (which would smuggle further fields into the request).
    /// - Throws: `invalid-request` (`bad-header`) naming the field.
    func checkSendable() throws(HTTPError) {
        for field in self where !Self.isToken(field.name) || field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
            throw HTTPError(.invalidRequest, code: .badHeader,
                            "The header field \"\(field.name.prefix(40))\" cannot be sent: its name is not a token or its value holds a line break.")
        }
    }
}
