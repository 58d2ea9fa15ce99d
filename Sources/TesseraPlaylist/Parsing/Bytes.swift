/// A half-open range of byte offsets into the document being parsed.
struct Span: Equatable {
    var start: Int
    var end: Int

    var isEmpty: Bool { start >= end }
    var count: Int { end - start }
}

/// Read access to the document's bytes during one parse. The pointer never escapes the parse.
struct Bytes {
    let base: UnsafeBufferPointer<UInt8>

    /// No bytes: a builder between the pieces of a document read in pieces.
    static var none: Bytes { Bytes(base: UnsafeBufferPointer(start: nil, count: 0)) }

    subscript(_ index: Int) -> UInt8 { base[index] }

    /// An owned `String` for `span` (the model boundary).
    func string(_ span: Span) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: base[span.start..<span.end]), as: UTF8.self)
    }

    /// True when `span` holds exactly `literal`.
    func equals(_ span: Span, _ literal: StaticString) -> Bool {
        span.count == literal.utf8CodeUnitCount && hasPrefix(span, literal)
    }

    /// True when `span` starts with `literal`. Compared a word at a time (tag names are a few
    /// words long, and a call to memcmp for each cost more than the comparison).
    @inline(__always)
    func hasPrefix(_ span: Span, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard span.count >= length else { return false }
        guard length > 0, let start = base.baseAddress else { return true }
        return Self.same(UnsafeRawPointer(start + span.start), UnsafeRawPointer(literal.utf8Start), length)
    }

    /// True when the `length` bytes at `a` and `b` are the same: 8 at a time, the last 8
    /// overlapping the ones before; shorter runs 4 at a time, then byte by byte.
    @inline(__always)
    static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                    return false
                }
                offset += 8
            }
            return a.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        }
        if length >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
        }
        for offset in 0..<length where a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }

    /// The first index of `byte` in `span`, or nil.
    func firstIndex(of byte: UInt8, in span: Span) -> Int? {
        var i = span.start
        while i < span.end {
            if base[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// True when `span` contains `{$` (so variable substitution may apply).
    func containsVariableReference(_ span: Span) -> Bool {
        // 8 bytes at a time past the words without a `{` (most lines have none), then byte by byte.
        guard let start = base.baseAddress, span.end - span.start >= 2 else { return false }
        let raw = UnsafeRawPointer(start)
        var i = span.start
        while i + 8 <= span.end {
            let notBrace = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x7B7B_7B7B_7B7B_7B7B
            guard (notBrace &- 0x0101_0101_0101_0101) & ~notBrace & 0x8080_8080_8080_8080 == 0 else { break }
            i += 8
        }
        while i + 1 < span.end {
            if base[i] == 0x7B, base[i + 1] == 0x24 { return true }
            i += 1
        }
        return false
    }
}
