#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Makes WebSocket tasks (RFC 6455) over libcurl connections that trust what the HTTP client
/// trusts: the same certificate authorities, public-key pins and proxy settings.
///
/// `wss://` always; `ws://` only with `allowsPlainText`. Text, binary, ping/pong, close codes,
/// fragmentation both ways, masking from the CSPRNG, UTF-8 checks of text, bounds on frames and
/// messages. No extensions are offered: permessage-deflate (RFC 7692) is not implemented, and a
/// server that answers with one fails the handshake.
public final class WebSocketClient: Sendable {
    /// Bounds, heartbeat and default header fields.
    public let configuration: WebSocketConfiguration
    /// Trust, pins and proxy (the HTTP transport's settings).
    public let transport: CurlTransport.Configuration

    /// A client with `configuration`, trusting as `transport` says.
    public init(configuration: WebSocketConfiguration = WebSocketConfiguration(),
                transport: CurlTransport.Configuration = CurlTransport.Configuration()) {
        self.configuration = configuration
        self.transport = transport
    }

    /// A task for `url`, not started (its `events` are already in place).
    /// - Throws: `invalid-request`: `unsupported-scheme` for a scheme other than ws/wss,
    ///   `insecure-url` for ws:// without `allowsPlainText`, `bad-header` for a field the
    ///   handshake owns or a subprotocol that is not a token.
    public func task(_ url: URL, headers: HTTPHeaders = HTTPHeaders(), protocols: [String] = []) throws(HTTPError) -> WebSocketTask {
        switch url.scheme?.lowercased() {
        case "wss": break
        case "ws":
            guard configuration.allowsPlainText else {
                throw HTTPError(.invalidRequest, code: .insecureURL,
                                "\(URLRedaction.redact(url)) is plain-text WebSocket; allow it explicitly (allowsPlainText, --allow-http).")
            }
        default:
            throw HTTPError(.invalidRequest, code: .unsupportedScheme, "Only ws and wss URLs open WebSockets; refused \(URLRedaction.redact(url)).")
        }
        guard url.host?.isEmpty == false else {
            throw HTTPError(.invalidRequest, code: .badURL, "\(URLRedaction.redact(url)) has no host.")
        }
        return try WebSocketTask(url: url, headers: headers, protocols: protocols, client: self)
    }

    /// A connection that reconnects by `policy` and keeps its listeners across reconnects.
    /// - Throws: as `task`.
    public func reconnecting(_ url: URL, headers: HTTPHeaders = HTTPHeaders(), protocols: [String] = [],
                             policy: WebSocketReconnectPolicy = WebSocketReconnectPolicy()) throws(HTTPError) -> ReconnectingWebSocket {
        try reconnecting(url, headers: headers, protocols: protocols, policy: policy, clock: ContinuousClock())
    }

    /// A reconnecting connection whose backoff waits on `clock` (tests pass a manual one).
    /// - Throws: as `task`.
    public func reconnecting<C: Clock>(_ url: URL, headers: HTTPHeaders = HTTPHeaders(), protocols: [String] = [],
                                       policy: WebSocketReconnectPolicy, clock: C) throws(HTTPError) -> ReconnectingWebSocket
    where C.Duration == Duration {
        ReconnectingWebSocket(first: try task(url, headers: headers, protocols: protocols), policy: policy,
                              // A sleep cut short by close() (cancellation) just ends the wait.
                              sleep: { try? await clock.sleep(for: $0) })
    }
}
