import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CurlTransport.Configuration {
    /// Sets the engine-wide connection options on an easy handle for a request to `host`: the
    /// proxy, the certificate authorities, and that host's public-key pins. Shared by HTTP
    /// transfers and WebSocket connections, so both trust the same servers the same way.
    func applyConnectionOptions(to handle: OpaquePointer, host: String) {
        switch proxy {
        case .environment: break
        case .none: _ = ccurl_setopt_str(handle, CURLOPT_PROXY, "")
        case .explicit(let url): _ = ccurl_setopt_str(handle, CURLOPT_PROXY, url.absoluteString)
        }
        if let pins = pins.curlOption(for: host) {
            _ = ccurl_setopt_str(handle, CURLOPT_PINNEDPUBLICKEY, pins)
        }
        if let bundle = certificateAuthorities {
            _ = ccurl_setopt_str(handle, CURLOPT_CAINFO, bundle.path)
        }
    }
}
