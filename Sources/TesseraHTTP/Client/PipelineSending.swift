/// What `HTTPClient` needs of an `HTTPPipeline`, whatever its clock.
protocol PipelineSending: Sendable {
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
    func data(_ request: HTTPRequest, upTo limit: Int) async throws(HTTPError) -> (head: HTTPResponseHead, body: [UInt8])
    func deliver<T: Sendable>(_ request: HTTPRequest,
                              _ consume: @escaping @Sendable (HTTPResponse) async throws(HTTPError) -> T) async throws(HTTPError) -> T
    func cancelAll()
    func cancel(tag: String)
}

extension HTTPPipeline: PipelineSending {}
