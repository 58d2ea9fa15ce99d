import TesseraHTTP

extension CurlTransport {
    /// A transport for loopback tests: never a proxy, whatever the environment says.
    public static func loopback() throws -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        return try CurlTransport(configuration: configuration)
    }
}
