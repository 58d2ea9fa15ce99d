import Testing
@testable import TesseraSupport

@Suite("SafeRelativePath")
struct SafeRelativePathTests {
    @Test("paths that could leave the root are refused", arguments: [
        "/../etc/passwd", "/a/../../b", "/./a", "//etc/passwd", "/a//b", "/a\\..\\b", "/", "", "a/b", "/a/..", "/a\u{0}b",
    ])
    func refused(path: String) {
        #expect(SafeRelativePath(requestPath: path) == nil)
    }

    @Test("relative paths that could leave the root, or are absolute, are refused", arguments: [
        "../a", "a/../../b", "./a", "/a", "a//b", "a\\b", "", "a/..", "a/", "a\u{0}b",
    ])
    func refusedRelative(path: String) {
        #expect(SafeRelativePath(path) == nil)
    }

    @Test("ordinary paths become relative")
    func accepted() {
        #expect(SafeRelativePath(requestPath: "/a/b/seg_001.ts")?.value == "a/b/seg_001.ts")
        #expect(SafeRelativePath(requestPath: "/..hidden")?.value == "..hidden")
        #expect(SafeRelativePath("video/720p/seg_001.ts")?.parents == ["video", "video/720p"])
        #expect(SafeRelativePath("master.m3u8")?.parents == [])
    }
}
