import TesseraPlayback

/// Several `LiveOrigin`s on one server, as a presentation's playlists are: the main one at the
/// root, each other under its folder (`/audio/live.m3u8`, `/audio/s<msn>.ts`), the request's path
/// given to it without the folder. Each publishes on its own counter: advance them together.
public final class LiveOriginGroup: HTTPResponder, Sendable {
    /// At the root.
    public let main: LiveOrigin
    /// By folder name.
    public let folders: [String: LiveOrigin]

    /// `main` at the root, `folders` under theirs.
    public init(main: LiveOrigin, folders: [String: LiveOrigin]) {
        self.main = main
        self.folders = folders
    }

    public func reply(to request: ServerRequest) -> ServerReply {
        let parts = request.path.dropFirst().split(separator: "/", maxSplits: 1)
        if parts.count == 2, let origin = folders[String(parts[0])] {
            return origin.reply(to: ServerRequest(method: request.method, path: "/" + parts[1], query: request.query, rangeHeader: request.rangeHeader,
                                                  ifRangeHeader: request.ifRangeHeader, ifNoneMatchHeader: request.ifNoneMatchHeader))
        }
        return main.reply(to: request)
    }
}
