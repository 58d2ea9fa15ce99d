import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraMedia

/// `tessera download <URL> -o <file> [--overwrite]`.
struct DownloadCommand: Sendable {
    let playlistURL: URL
    let output: URL
    let overwrite: Bool

    func run() async -> Int32 {
        let transport: CurlTransport
        do { transport = try CurlTransport() } catch {
            Terminal.error(error.message)
            return 1
        }
        defer { transport.shutdown() }
        var options = SingleFileDownload.Options()
        options.overwrite = overwrite ? .replace : .refuse
        let job = SingleFileDownload(playlistURL: playlistURL, destination: output, transport: transport, options: options)
        let display = ProgressDisplay(label: output.lastPathComponent)
        let result = await Cancellation.cancellingOnSignals { () -> Result<DownloadReport, HLSError> in
            do throws(HLSError) {
                return .success(try await job.run(progress: display.update))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let report):
            Terminal.line("wrote \(report.destination.path): \(report.segmentCount) segments, "
                + "\(ProgressDisplay.bytes(report.byteCount)), sha256 \(report.sha256.hex)")
            return 0
        case .failure(let error):
            if Terminal.isInteractive { Terminal.write("\n", to: .standardError) }
            Terminal.error(error.message)
            return 1
        }
    }
}
