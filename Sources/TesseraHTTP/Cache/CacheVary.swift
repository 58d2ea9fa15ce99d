/// The secondary cache key of a stored response (RFC 9111 §4.1): the request field values named
/// by its `Vary` header, captured when it was stored.
public struct CacheVary: Sendable, Equatable {
    /// The varying field names (lowercased) and the normalised values the original request had
    /// (nil when it lacked the field); nil as a whole when `Vary: *`, which never matches.
    public let fields: [(name: String, value: String?)]?

    /// Captures the key from a response's `Vary` and the request that produced it.
    public init(response: HTTPHeaders, request: HTTPHeaders) {
        var names: [String] = []
        for value in response.values("Vary") {
            for item in value.split(separator: ",") {
                let name = item.filter { $0 != " " && $0 != "\t" }.lowercased()
                if name == "*" { fields = nil; return }
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
        }
        fields = names.map { ($0, Self.normalised(request.values($0))) }
    }

    /// A key as stored earlier (the disk cache reading an entry back).
    init(fields: [(name: String, value: String?)]?) {
        self.fields = fields
    }

    /// A stable text form of the key, for naming stored variants.
    var keyText: String {
        guard let fields else { return "*" }
        return fields.map { "\($0.name)=\($0.value.map { "v" + $0 } ?? "-")" }.joined(separator: "\n")
    }

    /// Whether a new request may be served by the stored response.
    public func matches(_ request: HTTPHeaders) -> Bool {
        guard let fields else { return false }
        return fields.allSatisfy { Self.normalised(request.values($0.name)) == $0.value }
    }

    public static func == (lhs: CacheVary, rhs: CacheVary) -> Bool {
        switch (lhs.fields, rhs.fields) {
        case (nil, nil): true
        case let (l?, r?): l.elementsEqual(r) { $0.name == $1.name && $0.value == $1.value }
        default: false
        }
    }

    /// Combines field lines into one value and collapses whitespace around commas (§4.1 allows
    /// normalising values that are semantically the same).
    private static func normalised(_ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        return values.joined(separator: ",")
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingPrefix(while: { $0 == " " || $0 == "\t" }) }
            .map { String($0.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()) }
            .joined(separator: ",")
    }
}
