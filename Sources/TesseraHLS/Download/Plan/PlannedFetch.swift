import Foundation
import TesseraHTTP

/// One request of a plan: a whole resource, or contiguous byte ranges of one file coalesced into
/// a single range request.
struct PlannedFetch: Sendable {
    let url: URL
    /// The range asked for, or nil for the whole resource.
    let range: ByteRange?
    /// The plan resources the response holds, in order.
    let resources: Range<Int>

    /// Groups `resources` into requests: consecutive resources of the same URL whose byte ranges
    /// follow each other share one request of at most `maximumBytes`.
    static func coalescing(_ resources: [PlannedResource], maximumBytes: UInt64) -> [PlannedFetch] {
        var fetches: [PlannedFetch] = []
        var start = 0
        while start < resources.count {
            let first = resources[start]
            guard let range = first.range, let length = range.length else {
                fetches.append(PlannedFetch(url: first.url, range: first.range, resources: start..<start + 1))
                start += 1
                continue
            }
            var end = range.offset + length
            var next = start + 1
            while next < resources.count, resources[next].url == first.url,
                  let following = resources[next].range, let size = following.length,
                  following.offset == end, end + size - range.offset <= maximumBytes {
                end += size
                next += 1
            }
            fetches.append(PlannedFetch(url: first.url, range: ByteRange(offset: range.offset, length: end - range.offset),
                                        resources: start..<next))
            start = next
        }
        return fetches
    }
}
