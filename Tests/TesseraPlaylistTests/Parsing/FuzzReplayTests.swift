import Testing
import TesseraPlaylist
import TesseraTestSupport

@Suite("Playlist parser fuzz inputs")
struct PlaylistFuzzReplayTests {
    @Test("every saved corpus and crash input parses or throws a PlaylistError, without trapping")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzPlaylistParser")
        #expect(!inputs.isEmpty)
        for bytes in inputs {
            do { _ = try PlaylistParser().parse(bytes) } catch { #expect(!error.message.isEmpty) }
        }
    }
}
