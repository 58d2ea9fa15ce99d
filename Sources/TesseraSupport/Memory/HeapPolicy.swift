import CSystem

/// Process-wide heap policy for a command that allocates and frees many short-lived models.
package enum HeapPolicy {
    /// Keeps up to `bytes` of freed heap for reuse (and grows the heap `bytes / 2` at a time)
    /// instead of handing it back to the kernel after each free and faulting it in again. A
    /// process-wide choice for its composition root; glibc only (elsewhere nothing happens).
    package static func keepFreedHeap(upTo bytes: Int) {
        tessera_keep_freed_heap(Int32(clamping: bytes), Int32(clamping: bytes / 2))
    }

    /// For a media job, which allocates and frees buffers of megabytes (segment bodies, demuxed
    /// samples) from several threads: serves buffers up to `largeBuffer` bytes from at most
    /// `arenas` heaps and keeps up to `keeping` bytes freed for reuse, instead of mapping each
    /// buffer afresh and faulting its pages in (glibc's default above 128 KiB, one heap per
    /// thread). One heap by default: a buffer made by whichever thread is free (`SideBySide`)
    /// otherwise grows each heap to a segment's worth (a 2 GB mux peaked 14 MiB higher on
    /// some runs with two). glibc only (elsewhere nothing happens).
    package static func reuseLargeBuffers(arenas: Int = 1, largeBuffer: Int = 32 << 20, keeping: Int = 8 << 20) {
        tessera_reuse_large_buffers(Int32(clamping: arenas), Int32(clamping: largeBuffer), Int32(clamping: keeping))
    }

    /// For a process that runs for days (a recorder of many channels): buffers of
    /// `largeBuffer` bytes or more are mapped on their own and unmapped when freed, at a fixed
    /// threshold — glibc otherwise raises its threshold to the largest buffer freed so far, and
    /// from then on serves segment bodies from its arenas, whose freed pages stay resident and
    /// fragment, so the resident size climbs in steps while the live heap is flat. At most
    /// `arenas` heaps, each trimmed above `keeping` freed bytes; glibc only.
    package static func handBackLargeBuffers(arenas: Int = 2, largeBuffer: Int = 128 << 10, keeping: Int = 1 << 20) {
        tessera_reuse_large_buffers(Int32(clamping: arenas), Int32(clamping: largeBuffer), Int32(clamping: keeping))
    }

    /// Hands the freed memory of every allocator arena back to the kernel: between a job's
    /// phases (what the transfer held goes before the mux makes its own buffers), or so that the
    /// next allocations fault their pages in afresh (a measurement's cold start); glibc only.
    package static func returnFreedHeap() {
        tessera_return_freed_heap()
    }

    /// Bytes the allocator has handed out and not had back (its arenas and its own mappings),
    /// and the process's resident size: what is live, and what it costs. Zeros where unknown
    /// (not glibc, no /proc).
    package static func usage() -> (inUse: UInt64, resident: UInt64) {
        (UInt64(tessera_heap_in_use()), UInt64(tessera_resident_bytes()))
    }
}
