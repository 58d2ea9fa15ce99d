import CCurl

/// Maps a finished transfer's CURLcode to an `HTTPError` category (design note §3.9).
enum CurlErrorMapping {
    /// What the loop knew about the transfer when curl reported `code`.
    struct Facts {
        var code: CURLcode
        var detail: String
        var osErrno: Int
        /// True when the connection (and TLS) had been established before the failure.
        var connected: Bool
        /// True when the whole response head had arrived.
        var headReceived: Bool = false
        /// The request's body limit (named when curl stops a body for it).
        var maximumBodyBytes: UInt64 = 0
        var redactedURL: String
    }

    static func error(for facts: Facts) -> HTTPError {
        let code = facts.code
        let raw = Int(code.rawValue)
        let errno = facts.osErrno == 0 ? nil : facts.osErrno
        let detail = facts.detail.isEmpty ? String(cString: curl_easy_strerror(code)) : facts.detail
        func make(_ category: HTTPError.Category, _ name: HTTPError.Code, _ what: String) -> HTTPError {
            HTTPError(category, code: name, "\(what) for \(facts.redactedURL): \(detail)", curlCode: raw, osErrno: errno)
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return make(.dns, .dnsFailed, "Name resolution failed")
        case CURLE_COULDNT_CONNECT:
            return make(.connect, .connectFailed, "Could not connect")
        case CURLE_OPERATION_TIMEDOUT:
            return facts.connected
                ? make(.timeout, .transferTimeout, "The transfer timed out")
                : make(.timeout, .connectTimeout, "Connecting timed out")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return make(.tls, .tlsFailed, "TLS failed")
        case CURLE_FILESIZE_EXCEEDED:
            return HTTPError(.tooLarge, code: .bodyTooLarge,
                             "The response for \(facts.redactedURL) is larger than the request's limit of \(facts.maximumBodyBytes) bytes.",
                             curlCode: raw, osErrno: errno)
        case CURLE_OUT_OF_MEMORY where facts.connected && !facts.headReceived:
            // libcurl refuses a header line over its 100 KB maximum this way.
            return HTTPError(.protocol, code: .headersTooLarge,
                             "The response head of \(facts.redactedURL) has a header line longer than libcurl accepts (100 KB).",
                             curlCode: raw, osErrno: errno)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING:
            return make(.connectionLost, .connectionLost, "The connection was lost")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING:
            return make(.protocol, .protocolError, "The server broke HTTP")
        case CURLE_UNSUPPORTED_PROTOCOL where facts.connected:
            // After connecting, this is the server's reply (an HTTP/0.9 or garbage status line).
            return make(.protocol, .protocolError, "The server broke HTTP")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return make(.invalidRequest, .badURL, "The URL is not usable")
        case CURLE_ABORTED_BY_CALLBACK:
            return make(.cancelled, .cancelled, "The request was cancelled")
        default:
            return make(.internal, HTTPError.Code("curl-\(raw)"), "libcurl failed")
        }
    }
}
