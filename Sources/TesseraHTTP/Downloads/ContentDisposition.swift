#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The file name a `Content-Disposition` header suggests (RFC 6266), preferring the
/// internationalised `filename*` (RFC 8187, `UTF-8''percent-encoded`) over `filename`.
/// The name is returned as sent; `DownloadFileName` decides whether it is safe to use.
public enum ContentDisposition {
    /// The suggested file name, or nil when the header has none (or only undecodable ones).
    public static func fileName(_ headerValue: String) -> String? {
        var plain: String?
        var extended: String?
        for (name, value) in parameters(Array(headerValue.utf8)) {
            switch name {
            case "filename*": extended = extended ?? decodeExtended(value)
            case "filename": plain = plain ?? value
            default: break
            }
        }
        return extended ?? plain
    }

    /// `charset'language'percent-encoded`; only UTF-8 (and its ASCII subset) is accepted.
    private static func decodeExtended(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let charset = pieces[0].lowercased()
        guard charset == "utf-8" || charset == "us-ascii" else { return nil }
        return PercentDecoding.decode(pieces[2])
    }

    /// The `; name=value` parameters after the disposition type, names lowercased, quoted
    /// values unescaped.
    private static func parameters(_ bytes: [UInt8]) -> [(String, String)] {
        var result: [(String, String)] = []
        var i = bytes.firstIndex(of: 0x3B).map { $0 + 1 } ?? bytes.count
        func skipSpace() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        while i < bytes.count {
            skipSpace()
            let nameStart = i
            while i < bytes.count, bytes[i] != 0x3D, bytes[i] != 0x3B { i += 1 }
            let name = ASCIIText.trimmingBlanks(String(decoding: bytes[nameStart..<i], as: UTF8.self)).lowercased()
            var value: [UInt8] = []
            if i < bytes.count, bytes[i] == 0x3D {
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == 0x22 {
                    i += 1
                    while i < bytes.count, bytes[i] != 0x22 {
                        if bytes[i] == 0x5C, i + 1 < bytes.count { i += 1 }
                        value.append(bytes[i])
                        i += 1
                    }
                    while i < bytes.count, bytes[i] != 0x3B { i += 1 }
                } else {
                    while i < bytes.count, bytes[i] != 0x3B { value.append(bytes[i]); i += 1 }
                    while let last = value.last, last == 0x20 || last == 0x09 { value.removeLast() }
                }
            }
            if !name.isEmpty { result.append((name, String(decoding: value, as: UTF8.self))) }
            i += 1
        }
        return result
    }
}
