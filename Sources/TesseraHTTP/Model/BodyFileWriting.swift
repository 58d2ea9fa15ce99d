/// Which thread writes a body appended to a file (`HTTPBody.append(to:writing:progress:)`,
/// `HTTPClient.download`).
public enum BodyFileWriting: Sendable, Equatable {
    /// The reading task writes each piece while the transfer receives the next: the network on
    /// the engine's thread, the disk on the reader's, so a slow disk stalls no other transfer on
    /// the client's engine; each byte is copied once into the piece (the default).
    case beside
    /// The transfer writes each network chunk as it arrives, from libcurl's own buffer on the
    /// engine's thread, as `curl -o` does: no copy in memory and no buffer held, but a slow disk
    /// stalls every transfer on the client's engine — for a client that carries this one
    /// transfer (`tessera fetch -o`).
    case inline
}
