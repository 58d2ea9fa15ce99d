/// The credentials AWS Signature Version 4 signs with. Their description shows the access key
/// ID only: the secret and the session token never reach a log, an event or a message.
public struct AWSCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The access key ID (`AKIA…`, `ASIA…`).
    public let accessKeyId: String
    /// The secret access key.
    public let secretAccessKey: String
    /// The session token of temporary credentials (sent as `X-Amz-Security-Token`), if any.
    public let sessionToken: String?

    /// Credentials of `accessKeyId` and `secretAccessKey`, with `sessionToken` for temporary ones.
    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String {
        "AWSCredentials(\(accessKeyId), secret <redacted>\(sessionToken == nil ? "" : ", session token <redacted>"))"
    }

    public var debugDescription: String { description }
}
