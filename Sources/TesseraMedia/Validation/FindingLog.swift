/// Findings in stream order, at most `maximumPerID` kept per ID and the rest counted — shared by
/// the validators.
struct FindingLog: Sendable {
    let maximumPerID: Int
    private(set) var findings: [MediaFinding] = []
    private(set) var suppressed: [String: Int] = [:]
    private var counts: [String: Int] = [:]

    init(maximumPerID: Int) { self.maximumPerID = maximumPerID }

    mutating func report(_ id: String, _ severity: MediaFinding.Severity, at offset: UInt64, packet: UInt64? = nil, _ message: String) {
        let count = counts[id, default: 0] + 1
        counts[id] = count
        guard count <= maximumPerID else {
            suppressed[id, default: 0] += 1
            return
        }
        findings.append(MediaFinding(id: id, severity: severity, byteOffset: offset, packetIndex: packet, message: message))
    }
}
