import Foundation
import Testing
@testable import TesseraHTTP

@Suite("Download file names")
struct DownloadFileNameTests {
    @Test("Content-Disposition: filename* (RFC 8187) wins over filename; quoted values unescape")
    func contentDisposition() {
        #expect(ContentDisposition.fileName("attachment; filename=\"a \\\"b\\\".ts\"") == "a \"b\".ts")
        #expect(ContentDisposition.fileName("attachment; filename=plain.ts; filename*=UTF-8''%E2%82%AC%20rates.ts") == "€ rates.ts")
        #expect(ContentDisposition.fileName("attachment; FILENAME = spaced.ts ") == "spaced.ts")
        #expect(ContentDisposition.fileName("attachment; filename*=ISO-8859-1''x.ts; filename=y.ts") == "y.ts")
        #expect(ContentDisposition.fileName("inline") == nil)
    }

    @Test("names that could escape, hide or carry control characters are refused")
    func safety() {
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "a\u{0}b", ".hidden", "a\nb", "a\u{85}b", String(repeating: "x", count: 256)] {
            #expect(!DownloadFileName.isSafe(bad), "\(bad.debugDescription)")
        }
        for good in ["seg-1.ts", "€ rates.ts", "a..b", String(repeating: "x", count: 255)] {
            #expect(DownloadFileName.isSafe(good))
        }
    }

    @Test("the suggestion, then the URL's last segment, then a generated name")
    func choice() throws {
        let url = try #require(URL(string: "https://cdn.example/v/seg%201.ts?token=abc"))
        #expect(DownloadFileName.choose(contentDisposition: "attachment; filename=\"clip.ts\"", url: url) == "clip.ts")
        #expect(DownloadFileName.choose(contentDisposition: "attachment; filename=\"../../etc/passwd\"", url: url) == "seg 1.ts")
        let root = try #require(URL(string: "https://cdn.example/"))
        #expect(DownloadFileName.choose(contentDisposition: "attachment; filename=\"..\"", url: root, generated: "download-1") == "download-1")
        let dots = try #require(URL(string: "https://cdn.example/a/.."))
        #expect(DownloadFileName.choose(contentDisposition: nil, url: dots) == "download")
    }
}
