#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    subscript(_ index: Int) -> UInt8 { base[index] }

    /// An owned `String` for `span` (the model boundary).
    func string(_ span: Span) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: base[span.start..<span.end]), as: UTF8.self)
    }

    /// True when `span` holds exactly `literal`.
    func equals(_ span: Span, _ literal: StaticString) -> Bool {
        guard span.count == literal.utf8CodeUnitCount else { return false }
        guard span.count > 0, let start = base.baseAddress else { return true }
        return memcmp(start + span.start, literal.utf8Start, span.count) == 0
    }

    /// True when `span` starts with `literal`.
    func hasPrefix(_ span: Span, _ literal: StaticString) -> Bool {
        guard span.count >= literal.utf8CodeUnitCount else { return false }
        return equals(Span(start: span.start, end: span.start + literal.utf8CodeUnitCount), literal)
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
        // memchr for each `{` (most lines have none), then a look at the byte after it.
        guard let start = base.baseAddress, span.end - span.start >= 2 else { return false }
        var i = span.start
        while i + 1 < span.end {
            guard let found = memchr(start + i, 0x7B, span.end - 1 - i) else { return false }
            i = UnsafeRawPointer(found) - UnsafeRawPointer(start)
            if base[i + 1] == 0x24 { return true }
            i += 1
        }
        return false
    }
}
