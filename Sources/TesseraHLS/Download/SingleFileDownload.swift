import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist

/// Downloads a VOD media playlist of MPEG-TS segments into one file: parse, refuse unsupported
/// layouts before any media byte, fetch each segment (byte ranges included) in order, decrypt
/// AES-128, check packet structure, write to a staging file beside the destination, and publish
/// it atomically only when everything succeeded. On any failure or cancellation nothing appears
/// at the destination.
public struct SingleFileDownload: Sendable {
    /// Job settings.
    public struct Options: Sendable {
        /// What to do when the destination exists. Default `.refuse`.
        public var overwrite: OverwritePolicy = .refuse
        /// Bounds for each segment request.
        public var segmentLimits = TransferLimits()
        /// The defaults.
        public init() {}
    }

    private let playlistURL: URL
    private let destination: URL
    private let transport: any HTTPTransport
    private let options: Options

    /// A job that downloads `playlistURL` into `destination` through `transport`.
    public init(playlistURL: URL, destination: URL, transport: any HTTPTransport, options: Options = Options()) {
        self.playlistURL = playlistURL
        self.destination = destination
        self.transport = transport
        self.options = options
    }

    /// Runs the job.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `fetch-failed`,
    ///   `http-status`, `invalid-playlist`, `multivariant-playlist`, `unsupported`, `bad-key`,
    ///   `decrypt-failed`, `malformed-media`, `cancelled`.
    public func run(progress: @Sendable (DownloadProgress) -> Void = { _ in }) async throws(HLSError) -> DownloadReport {
        let staging: StagingFile
        do { staging = try StagingFile(destination: destination, policy: options.overwrite) } catch {
            throw HLSError(destination: error)
        }
        let (playlist, baseURL) = try await PlaylistLoader(transport: transport).loadMediaPlaylist(playlistURL)
        let plan = try TransportStreamPlan(playlist: playlist, baseURL: baseURL)
        let fetcher = ResourceFetcher(transport: transport)
        let keys = KeyStore(fetcher: fetcher)
        let hasher: SHA256Hasher
        do { hasher = try SHA256Hasher() } catch {
            throw HLSError(.decryptFailed, "libcrypto is unavailable: \(error)", cause: error)
        }
        var written: UInt64 = 0
        var validator = TSValidator()
        progress(DownloadProgress(resourcesDone: 0, resourceCount: plan.segments.count, bytesWritten: 0))
        for segment in plan.segments {
            guard !Task.isCancelled else {
                throw HLSError(.cancelled, "The download of \(URLRedaction.redact(playlistURL)) was cancelled.")
            }
            if segment.index > 0 { validator.beginSegment(discontinuity: segment.startsDiscontinuity) }
            var writer = SegmentWriter(staging: staging, hasher: hasher, label: "Segment \(segment.index)", validator: validator)
            if let encryption = segment.encryption {
                try writer.startDecrypting(key: try await keys.key(at: encryption.keyURL), iv: encryption.iv)
            }
            var request = HTTPRequest(url: segment.url, purpose: .segment)
            request.byteRange = segment.range
            request.limits = options.segmentLimits
            let what = "Segment \(segment.index)"
            let response = try await fetcher.send(request, what: what)
            do {
                for try await chunk in response.body { try writer.write(chunk) }
            } catch let error as HTTPError {
                throw ResourceFetcher.map(error, what: what, url: segment.url)
            } catch let error as HLSError {
                throw error
            } catch {
                preconditionFailure("unexpected error \(error)")
            }
            written += try writer.finish()
            validator = writer.validator
            progress(DownloadProgress(resourcesDone: segment.index + 1, resourceCount: plan.segments.count,
                                      bytesWritten: written))
        }
        // The whole output passes the validator before it is published (a PAT/PMT is required).
        if let finding = validator.finish().first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "The assembled file is not valid MPEG-TS: \(finding)")
        }
        do { try staging.commit() } catch { throw HLSError(destination: error) }
        return DownloadReport(destination: destination, segmentCount: plan.segments.count, byteCount: written,
                              sha256: hasher.finalize())
    }
}
