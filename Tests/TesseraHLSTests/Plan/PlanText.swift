import Foundation
@testable import TesseraHLS
import TesseraPlaylist

/// Media playlists written inline for the plan tests (no sockets).
enum PlanText {
    static let base = URL(string: "https://cdn.example/v/index.m3u8?token=abc")!

    static func media(_ body: String, version: Int = 7) throws -> MediaPlaylist {
        let parsed = try PlaylistParser().parse(Array("#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:4\n\(body)\n#EXT-X-ENDLIST\n".utf8))
        guard case .media(let playlist) = parsed.playlist else { preconditionFailure("not a media playlist") }
        return playlist
    }

    static func plan(_ body: String, maximumCoalescedBytes: UInt64 = 8 << 20) throws(HLSError) -> DownloadPlan {
        let playlist: MediaPlaylist
        do { playlist = try media(body) } catch { preconditionFailure("\(error)") }
        return try DownloadPlan(playlist: playlist, baseURL: base, maximumCoalescedBytes: maximumCoalescedBytes)
    }

    /// `count` segments of one file as consecutive byte ranges of `size`, after an init of 100 bytes.
    static func ranges(count: Int, size: Int, file: String = "media.mp4") -> String {
        var text = "#EXT-X-MAP:URI=\"\(file)\",BYTERANGE=\"100@0\"\n"
        for index in 0..<count { text += "#EXTINF:4,\n#EXT-X-BYTERANGE:\(size)@\(100 + index * size)\n\(file)\n" }
        return text
    }

    static func error(_ body: String) -> HLSError? {
        do { _ = try plan(body); return nil } catch { return error }
    }
}
