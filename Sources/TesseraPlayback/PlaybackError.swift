/// The one error type of `TesseraPlayback`.
public struct PlaybackError: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable text.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The bind address is not 127.0.0.1 or ::1.
        public static let nonLoopbackAddress = Code("non-loopback-address")
        /// libmicrohttpd could not start (port in use, bad option, resources).
        public static let startFailed = Code("start-failed")
        /// A served directory could not be opened.
        public static let rootUnavailable = Code("root-unavailable")
        /// A package to serve did not verify.
        public static let invalidPackage = Code("invalid-package")
        /// An access log could not be opened.
        public static let logUnwritable = Code("log-unwritable")
    }

    /// What went wrong.
    public let code: Code
    /// One sentence naming what failed.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
