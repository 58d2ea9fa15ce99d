import CCurl

/// Process-wide libcurl setup, done once (swift_once makes the `static let` race-free).
enum CurlGlobal {
    /// Initialises libcurl and ignores SIGPIPE (NOSIGNAL handles no longer do it around calls).
    static let initialised: Bool = {
        ccurl_ignore_sigpipe()
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()
}
