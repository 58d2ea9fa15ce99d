/// What `tessera record --channels` holds, as a JSON line for `--json` once a minute, just after
/// the freed heap went back to the kernel: `event` ("memory"), `time` (seconds since 1970),
/// `heapInUseBytes` (what the allocator has handed out and not had back: what is live) and
/// `residentBytes` (the resident size then: the floor that a leak, or a heap fragmenting, would
/// raise day after day, below the bursts of segment bodies in between).
struct ChannelMemoryLine: Encodable {
    let event = "memory"
    let time: Double
    let heapInUseBytes: UInt64
    let residentBytes: UInt64
}
