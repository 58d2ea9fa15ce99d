/// The one error type of `TesseraMedia`: an operational failure in decryption, hashing or a
/// structural check that the caller asked to be fatal.
///
/// `code` is stable, payload-free text (`decrypt-failed`, `bad-key-length`, …); `message` is one
/// human sentence; `context` names what was being processed (never key material).
public struct MediaError: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable text.
        public let rawValue: String
        /// Creates a code from its stable text.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The key is not exactly 16 bytes.
        public static let badKeyLength = Code("bad-key-length")
        /// The IV is not exactly 16 bytes.
        public static let badIVLength = Code("bad-iv-length")
        /// Decryption failed: wrong key, corrupt padding or a truncated ciphertext.
        public static let decryptFailed = Code("decrypt-failed")
        /// libcrypto refused an operation (allocation or initialisation).
        public static let cryptoUnavailable = Code("crypto-unavailable")
        /// The bytes are not a well-formed MPEG-TS packet sequence.
        public static let malformedTransportStream = Code("malformed-transport-stream")
        /// The bytes are not a well-formed sequence of ISO-BMFF boxes.
        public static let malformedBoxes = Code("malformed-boxes")
        /// The bytes of an elementary stream (ADTS, H.264, HEVC, …) do not follow their syntax.
        public static let malformedElementaryStream = Code("malformed-elementary-stream")
        /// A stream's codec parameters change (another resolution, profile, rate or channel
        /// layout) where one track cannot carry both yet.
        public static let parametersChanged = Code("parameters-changed")
        /// The bytes are not a WebVTT segment whose cues can be read.
        public static let malformedSubtitles = Code("malformed-subtitles")
        /// A well-formed stream in a form the muxer does not carry (an E-AC-3 substream layout,
        /// a frame of fewer than six blocks).
        public static let unsupportedStream = Code("unsupported-stream")
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// One sentence saying what was found and what was expected.
    public let message: String
    /// What was being processed (a resource name, never a key or a signed URL).
    public let context: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, context: String? = nil) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String {
        context.map { "\(message) (\($0))" } ?? message
    }
}
