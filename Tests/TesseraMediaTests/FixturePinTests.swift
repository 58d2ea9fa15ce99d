import Testing
import TesseraTestSupport

@Suite("Fixture pins")
struct FixturePinTests {
    @Test("every file under Fixtures/ is in the manifest and every manifest entry exists")
    func folderMatchesManifest() throws {
        let pinned = try FixtureStore.entries().map(\.path).sorted()
        #expect(pinned == FixtureStore.filesOnDisk())
    }

    @Test("every fixture matches its pinned size and SHA-256")
    func everyFileMatchesItsPin() throws {
        for entry in try FixtureStore.entries() {
            #expect(throws: Never.self) { _ = try FixtureStore.bytes(entry.path) }
        }
    }

    @Test("every entry says how it was made and what it exercises; the folder stays well under 5 MB")
    func manifestIsDescriptive() throws {
        let entries = try FixtureStore.entries()
        #expect(entries.allSatisfy { !$0.made.isEmpty && !$0.exercises.isEmpty })
        #expect(entries.reduce(0) { $0 + $1.bytes } < 3 << 20)
    }
}
