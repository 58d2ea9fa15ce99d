#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia

/// The `tessera validate --json` document: `format` (`mpeg-ts` or `fmp4`), `file`, `bytes`,
/// `packets` (MPEG-TS only), `valid`,
/// `findings` (`id`, `severity`, `byteOffset`, `packetIndex`, `message`) and `suppressed` (counts
/// per ID beyond the cap).
struct ValidationReport: Encodable {
    struct Finding: Encodable {
        let id: String
        let severity: String
        let byteOffset: UInt64
        let packetIndex: UInt64?
        let message: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(severity, forKey: .severity)
            try container.encode(byteOffset, forKey: .byteOffset)
            try container.encode(packetIndex, forKey: .packetIndex)   // null, not absent
            try container.encode(message, forKey: .message)
        }

        private enum CodingKeys: String, CodingKey { case id, severity, byteOffset, packetIndex, message }
    }

    let format: String
    let file: String
    let bytes: UInt64
    let packets: UInt64?
    let valid: Bool
    let findings: [Finding]
    let suppressed: [String: Int]

    init(format: String, path: String, bytes: UInt64, findings: [MediaFinding], suppressed: [String: Int], valid: Bool) {
        self.format = format
        file = path
        self.bytes = bytes
        packets = format == "mpeg-ts" ? bytes / 188 : nil
        self.valid = valid
        self.findings = findings.map {
            Finding(id: $0.id, severity: $0.severity.rawValue, byteOffset: $0.byteOffset, packetIndex: $0.packetIndex, message: $0.message)
        }
        self.suppressed = suppressed
    }

    var json: String {
        JSONText.of(self, pretty: true)
    }
}
