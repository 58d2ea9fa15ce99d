/// Cuts a transport stream that arrives in chunks of any size into 188-byte packets: a packet
/// split across chunks is carried (at most 187 bytes) until the chunk that completes it. Shared
/// by the validator and the demuxer, so both see the same packets whatever the chunking.
struct TSPacketFramer: Sendable {
    /// The packets of one chunk: the carried packet it completes, then whole packets at offsets
    /// `whole` (a multiple of 188 long) of the chunk.
    struct Cut {
        /// The packet completed from the carry and the chunk's first bytes.
        let completed: [UInt8]?
        /// The chunk's whole packets.
        let whole: Range<Int>
    }

    private var carry: [UInt8] = []

    /// Bytes carried: the start of a packet not yet complete.
    var pendingCount: Int { carry.count }

    /// The packets `bytes` completes; what is left after them is carried.
    mutating func cut(_ bytes: UnsafeRawBufferPointer) -> Cut {
        var index = 0
        var completed: [UInt8]?
        if !carry.isEmpty {
            index = min(TSPacket.size - carry.count, bytes.count)
            carry.append(contentsOf: bytes[0..<index])
            if carry.count == TSPacket.size {
                completed = carry
                carry.removeAll(keepingCapacity: true)
            }
        }
        let end = index + (bytes.count - index) / TSPacket.size * TSPacket.size
        if end < bytes.count { carry.append(contentsOf: bytes[end...]) }
        return Cut(completed: completed, whole: index..<end)
    }

    /// Forgets the carried bytes.
    mutating func discardPending() { carry.removeAll() }
}
