import TesseraHTTP

extension CurlTransport {
    /// The configuration of loopback tests: never a proxy, whatever the environment says.
    public static var loopbackConfiguration: CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        return configuration
    }

    /// A transport for loopback tests.
    public static func loopback() throws -> CurlTransport {
        try CurlTransport(configuration: loopbackConfiguration)
    }
}
