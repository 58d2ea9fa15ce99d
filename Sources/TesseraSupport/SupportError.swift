/// The one error type of `TesseraSupport`: a durable file operation or a digest that failed.
/// Modules above wrap it as the cause of their own error (`HTTPError`, `HLSError`), keeping its
/// code text.
public struct SupportError: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable text.
        public let rawValue: String
        /// Creates a code from its stable text.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The destination exists and replacing it was not asked for.
        public static let destinationExists = Code("destination-exists")
        /// The destination (or its staging file or folder) cannot be created, written or published.
        public static let destinationUnwritable = Code("destination-unwritable")
        /// Another job (in this process or another) holds the destination's lock.
        public static let destinationBusy = Code("destination-busy")
        /// The destination's volume has no room for a reservation.
        public static let destinationFull = Code("destination-full")
        /// A log cannot be opened or read (permissions, a planted symlink, over its size bound).
        public static let logUnusable = Code("log-unusable")
        /// A log record could not be encoded or written durably.
        public static let logWriteFailed = Code("log-write-failed")
        /// libcrypto could not allocate or initialise a digest.
        public static let cryptoUnavailable = Code("crypto-unavailable")
        /// The kernel refused a descriptor (an eventfd, a pipe).
        public static let ioFailed = Code("io-failed")
    }

    /// What went wrong.
    public let code: Code
    /// One sentence naming what failed and where.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
