/// When each phase of one exchange ended, measured by libcurl from the start of the transfer.
/// Phases a reused connection skipped are zero; `tlsHandshake` is zero for plain HTTP.
public struct TransferTimings: Sendable, Equatable {
    /// Name resolution done.
    public var dnsLookup: Duration = .zero
    /// TCP connected.
    public var connect: Duration = .zero
    /// TLS handshake done.
    public var tlsHandshake: Duration = .zero
    /// The request was about to be sent.
    public var requestStart: Duration = .zero
    /// The first response byte arrived.
    public var firstByte: Duration = .zero

    /// All zero (test doubles, cache hits).
    public init() {}

    /// Timings from curl's microsecond counters.
    init(dnsLookup: Int64, connect: Int64, tlsHandshake: Int64, requestStart: Int64, firstByte: Int64) {
        self.dnsLookup = .microseconds(dnsLookup)
        self.connect = .microseconds(connect)
        self.tlsHandshake = .microseconds(tlsHandshake)
        self.requestStart = .microseconds(requestStart)
        self.firstByte = .microseconds(firstByte)
    }
}
