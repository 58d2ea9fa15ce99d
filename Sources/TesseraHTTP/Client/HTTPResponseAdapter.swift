/// Changes or checks a collected response before status validation and decoding: unwraps an
/// envelope, maps an API's error document to an `HTTPError`, normalises a header. Adapters run in
/// the configured order after the pipeline's policies (redirects, retries, auth replay, cache)
/// have produced the final response; they do not see streamed bodies or downloads.
public protocol HTTPResponseAdapter: Sendable {
    /// Adjusts `response`; throwing fails the request with that error.
    func adapt(_ response: inout HTTPCollectedResponse) async throws(HTTPError)
}
