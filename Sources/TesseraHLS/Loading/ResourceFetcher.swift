import Foundation
import TesseraHTTP

/// Small bounded fetches (playlists, keys) through an `HTTPTransport`: success status required,
/// body collected up to a limit, failures mapped to `HLSError` with the URL redacted.
struct ResourceFetcher: Sendable {
    let transport: any HTTPTransport

    /// The body of `url` and the URL that answered.
    func fetch(_ url: URL, purpose: RequestPurpose, what: String, limit: Int) async throws(HLSError) -> (bytes: [UInt8], url: URL) {
        var request = HTTPRequest(url: url, purpose: purpose)
        request.limits.maximumBodyBytes = UInt64(limit)
        let response = try await send(request, what: what)
        do {
            return (try await response.body.collect(upTo: limit), response.head.url)
        } catch {
            throw Self.map(error, what: what, url: url)
        }
    }

    /// Sends `request`, requiring a 2xx status.
    func send(_ request: HTTPRequest, what: String) async throws(HLSError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw Self.map(error, what: what, url: request.url)
        }
        guard response.head.isSuccess else {
            throw HLSError(.httpStatus, "\(what) \(URLRedaction.redact(request.url)) answered HTTP \(response.head.status).")
        }
        return response
    }

    static func map(_ error: HTTPError, what: String, url: URL) -> HLSError {
        if error.category == .cancelled {
            return HLSError(.cancelled, "Cancelled while fetching \(what.lowercased()) \(URLRedaction.redact(url)).", cause: error)
        }
        return HLSError(.fetchFailed, "\(what) could not be fetched: \(error.message)", cause: error)
    }
}
