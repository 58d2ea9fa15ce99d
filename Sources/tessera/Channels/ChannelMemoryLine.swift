/// What `tessera record --channels` holds, as a JSON line for `--json` once a minute, just after
/// the freed heap went back to the kernel: `event` ("memory"), `time` (seconds since 1970),
/// `heapInUseBytes` (what the allocator has handed out and not had back: what is live),
/// `residentBytes` (the resident size then) and `bodyBytes` (of those, the segment bodies held —
/// arriving, waiting to be written, kept for the next — which the shared budget bounds). The
/// resident size less the bodies is the floor that a leak, or a heap fragmenting, would raise
/// day after day.
struct ChannelMemoryLine: Encodable {
    let event = "memory"
    let time: Double
    let heapInUseBytes: UInt64
    let residentBytes: UInt64
    let bodyBytes: UInt64
}
