import Testing
@testable import TesseraPlayback

@Suite("SafeRelativePath")
struct SafeRelativePathTests {
    @Test("paths that could leave the root are refused", arguments: [
        "/../etc/passwd", "/a/../../b", "/./a", "//etc/passwd", "/a//b", "/a\\..\\b", "/", "", "a/b", "/a/..", "/a\u{0}b",
    ])
    func refused(path: String) {
        #expect(SafeRelativePath(path) == nil)
    }

    @Test("ordinary paths become relative")
    func accepted() {
        #expect(SafeRelativePath("/a/b/seg_001.ts")?.value == "a/b/seg_001.ts")
        #expect(SafeRelativePath("/..hidden")?.value == "..hidden")
    }
}
