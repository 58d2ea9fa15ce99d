#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP

/// Where a URI of a stream's playlist lives right now: its absolute URL and the pathway that
/// serves it (Content Steering), resolved when it is fetched.
public struct ResolvedLocation: Sendable, Equatable {
    /// The absolute URL.
    public let url: URL
    /// The pathway serving it, when the presentation steers; validators (ETag, Last-Modified)
    /// are compared only between responses of one pathway.
    public let pathway: String?

    /// Creates a location.
    public init(url: URL, pathway: String? = nil) {
        self.url = url
        self.pathway = pathway
    }
}

/// Resolves the URIs of planned fetches and keys at fetch time. A steering client implements it
/// to move a stream to another pathway in the middle of a job.
public protocol TransferURLResolver: Sendable {
    /// The location of `uri` as written in `stream`'s playlist.
    /// - Throws: `HLSError` `invalid-playlist` or `unsupported` for a URI that cannot be fetched
    ///   (another scheme, an HTTPS downgrade), `unsupported` for an unknown stream.
    func location(of uri: String, in stream: StreamIdentity) async throws(HLSError) -> ResolvedLocation

    /// A fetch from `location` failed with `error` after the client's retries: true when the
    /// resolver moved the stream elsewhere (another pathway) and the fetch should be tried again
    /// there. The default: false.
    func recover(from error: HLSError, at location: ResolvedLocation) async -> Bool

    /// `bytes` arrived from `location` in `duration` (a throughput sample; steering reports it
    /// as `_HLS_throughput`). The default ignores it.
    func fetched(_ bytes: Int, from location: ResolvedLocation, in duration: Duration) async

    /// Whether `fetched` does anything (the processor skips timing and the call otherwise).
    var wantsThroughput: Bool { get }
}

extension TransferURLResolver {
    /// No failover.
    public func recover(from error: HLSError, at location: ResolvedLocation) async -> Bool { false }
    /// Ignored.
    public func fetched(_ bytes: Int, from location: ResolvedLocation, in duration: Duration) async {}
    /// No.
    public var wantsThroughput: Bool { false }
}

/// Resolves against each stream's media playlist URL (RFC 8216bis §4.1, RFC 3986 §5): the
/// resolver of a job without Content Steering.
public struct PlaylistURLResolver: TransferURLResolver {
    private let playlists: [StreamIdentity: URL]

    /// A resolver for streams whose media playlists were fetched from these URLs.
    public init(playlists: [StreamIdentity: URL]) {
        self.playlists = playlists
    }

    /// A resolver for one stream.
    public init(stream: StreamIdentity = .main, playlistURL: URL) {
        self.init(playlists: [stream: playlistURL])
    }

    public func location(of uri: String, in stream: StreamIdentity) throws(HLSError) -> ResolvedLocation {
        guard let base = playlists[stream] else {
            throw HLSError(.unsupported, "The transfer names stream \(stream), whose playlist is not known.")
        }
        return ResolvedLocation(url: try ResourceURL.resolve(uri, against: base, what: "A resource of \(stream)"))
    }
}
