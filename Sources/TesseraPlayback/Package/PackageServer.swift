#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS

/// Serves an offline package to a player over loopback: the package is verified first
/// (`PackageStore`; one that fails is refused), every reachable playlist is frozen in memory
/// before the server listens, and only the package's files are reachable (GET, HEAD, single
/// byte ranges, ETag and If-Range on media, the right media types; `GET /` is a player page).
/// 127.0.0.1 or ::1 only; the bounds of `LoopbackServer.Configuration` apply (connections,
/// idle and request-head deadlines, memory per connection).
public final class PackageServer: Sendable {
    /// What verification found (verified: no findings).
    public let verification: PackageVerification
    private let server: LoopbackServer

    /// Verifies the package at `folder` (as `check` says: its files, or its media too) and starts
    /// serving it. A file changed after verification (rewritten in place, even at its size, or
    /// replaced) is never served under its identity: 404, and `notice` (and the log) told once.
    /// - Throws: `invalid-package` (naming the first finding and their count), `root-unavailable`,
    ///   `non-loopback-address`, `start-failed`, `log-unwritable` (from the caller's log).
    public init(folder: URL, configuration: LoopbackServer.Configuration = LoopbackServer.Configuration(), log: AccessLog? = nil,
                check: PackageStore.Scope = .files, notice: @escaping @Sendable (String) -> Void = { _ in }) throws(PlaybackError) {
        let verification = PackageStore(folder: folder).verify(check)
        guard verification.isVerified, let manifest = verification.manifest else {
            let count = verification.findings.count
            throw PlaybackError(.invalidPackage, "\(folder.path) is not a verified package (\(count) finding\(count == 1 ? "" : "s"); tessera verify-package lists them): \(verification.findings.first?.description ?? "no manifest").")
        }
        self.verification = verification
        let responder = try PackageResponder(folder: folder, verification: verification, manifest: manifest, log: log, notice: notice)
        server = try LoopbackServer(configuration: configuration, responder: responder)
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { server.baseURL }
    /// The package's multivariant playlist, `http://127.0.0.1:PORT/master.m3u8`.
    public var entryURL: URL { server.baseURL.appendingPathComponent(verification.manifest?.entry ?? PackageManifest.entryName) }
    /// The bound port.
    public var port: UInt16 { server.port }

    /// Serves until the calling task is cancelled.
    public func run() async { await server.run() }

    /// Stops serving (idempotent; also on deinit).
    public func shutdown() { server.shutdown() }
}
