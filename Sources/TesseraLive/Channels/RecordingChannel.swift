#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS

/// One channel of a `ChannelRecorder`: its name (its folder under the recorder's directory), its
/// live playlist, the client its requests go through — its own header fields and retries, on the
/// transport every channel shares — how it records (`LiveRecording.Options`, exactly as
/// `tessera record` would), and a revision that says whether a channel given again under the
/// same name (`ChannelRecorder.update(_:)`) changed and must restart.
public struct RecordingChannel: Sendable {
    /// The name: 1 to 64 of `A-Z a-z 0-9 _ -`, not starting with `-` (`ChannelList.isValidName`).
    public let name: String
    /// The live playlist (media or multivariant).
    public let url: URL
    /// The client of its requests.
    public let client: HLSClient
    /// How it records.
    public var options: LiveRecording.Options
    /// What the channel is, for `update(_:)`: the same name with another revision restarts.
    /// Default the URL.
    public var revision: String

    /// A channel named `name` recording `url` through `client`.
    /// - Throws: `invalid-channel-list` when `name` cannot name a folder.
    public init(name: String, url: URL, client: HLSClient, options: LiveRecording.Options = LiveRecording.Options(),
                revision: String? = nil) throws(HLSError) {
        guard ChannelList.isValidName(name) else {
            throw HLSError(.invalidChannelList, "\"\(name.prefix(80))\" is not a channel name (1 to \(ChannelList.maximumNameLength) of A-Z a-z 0-9 _ -, not starting with -).")
        }
        self.name = name
        self.url = url
        self.client = client
        self.options = options
        self.revision = revision ?? url.absoluteString
    }
}
