/// The resolver of a job of several streams (a package's tracks): each stream's URIs resolve
/// through its own resolver. A failed fetch's recovery and the throughput samples go to the
/// first one: the streams of a steered job share one steering controller, so the pathway a
/// failure penalises is penalised for all of them.
struct StreamResolvers: TransferURLResolver {
    private let resolvers: [StreamIdentity: any TransferURLResolver]
    private let primary: any TransferURLResolver

    /// Resolvers by stream; `primary` answers recoveries and throughput samples.
    init(_ resolvers: [StreamIdentity: any TransferURLResolver], primary: any TransferURLResolver) {
        self.resolvers = resolvers
        self.primary = primary
    }

    func location(of uri: String, in stream: StreamIdentity) async throws(HLSError) -> ResolvedLocation {
        guard let resolver = resolvers[stream] else {
            throw HLSError(.unsupported, "The transfer names stream \(stream), whose playlist is not known.")
        }
        return try await resolver.location(of: uri, in: stream)
    }

    func recover(from error: HLSError, at location: ResolvedLocation) async -> Bool {
        await primary.recover(from: error, at: location)
    }

    func fetched(_ bytes: Int, from location: ResolvedLocation, in duration: Duration) async {
        await primary.fetched(bytes, from: location, in: duration)
    }

    var wantsThroughput: Bool { primary.wantsThroughput }
}
