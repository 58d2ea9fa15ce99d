#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP

extension NetworkOptions {
    /// Runs `work` with an HLS client for `entry` — a libcurl transport with these options, the
    /// HLS policies with their retries and headers — shut down after it; 1 (the error said) when
    /// the transport cannot be made.
    func withClient(entry: URL, _ work: (HLSClient) async -> Int32) async -> Int32 {
        let transport: CurlTransport
        do { transport = try CurlTransport(configuration: try self.transport(entry: entry)) } catch {
            Terminal.error(error.message)
            return 1
        }
        defer { transport.shutdown() }
        return await work(HLSClient(transport: transport, configuration: pipeline(entry: entry, base: HLSClient.defaultConfiguration)))
    }
}
