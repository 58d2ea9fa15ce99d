import TesseraHTTP

extension LiveHealth.Freshness {
    /// The freshness facts of a playlist response's `headers`: `Age` (delta-seconds, a negative or
    /// malformed value ignored) and the `Cache-Control` max-age (a malformed or repeated one
    /// ignored).
    public init(headers: HTTPHeaders) {
        let age = headers["Age"].flatMap { Int64($0.filter { $0 != " " && $0 != "\t" }) }.flatMap { $0 >= 0 ? Double($0) : nil }
        let maxAge: Double? = switch CacheControl(headers: headers).seconds("max-age") {
        case .seconds(let value)?: Double(value)
        default: nil
        }
        self.init(age: age, maxAge: maxAge)
    }
}
