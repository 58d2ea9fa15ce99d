/// Writes pretty-printed JSON (two-space indent, keys in the order written, explicit nulls)
/// straight into bytes streamed to a sink: no intermediate tree, no `String` per value.
package struct JSONWriter {
    private let buffer: ByteBuffer
    /// Open containers.
    private var depth = 0
    /// Bit `d`: whether the container open at depth `d + 1` has had an element yet.
    private var hasElements: UInt64 = 0

    /// The deepest nesting written (the documents written nest a handful of levels).
    static let maximumDepth = 64

    /// Newline followed by indentation for every depth, appended as one slice.
    private static let newlineAndSpaces: [UInt8] = [0x0A] + [UInt8](repeating: 0x20, count: 256)

    package init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        buffer = ByteBuffer(capacity: 1 << 20, sink: sink)
    }

    /// Hands any buffered bytes to the sink; call once at the end.
    package mutating func finish() { buffer.flush() }

    @inline(__always)
    package mutating func beginObject() { open(0x7B) }
    @inline(__always)
    package mutating func endObject() { close(0x7D) }
    package mutating func beginArray() { open(0x5B) }
    package mutating func endArray() { close(0x5D) }

    /// Starts an object member: separator, indentation, `"name": `.
    @inline(__always)
    package mutating func key(_ name: StaticString) {
        element()
        buffer.append(0x22)
        buffer.append(name.utf8Start, count: name.utf8CodeUnitCount)
        append("\": ")
    }

    /// Starts an object member whose name is only known at run time (escaped like a string).
    package mutating func dynamicKey(_ name: String) {
        element()
        string(name)
        append(": ")
    }

    /// Starts an array element (for scalars written into arrays).
    package mutating func item() { element() }

    @inline(__always)
    package mutating func null() { append("null") }
    /// A final line feed after the top-level value.
    package mutating func lineFeed() { buffer.append(0x0A) }
    @inline(__always)
    package mutating func bool(_ value: Bool) { append(value ? "true" : "false") }

    package mutating func integer(_ value: UInt64?) {
        guard var value else { return null() }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(value % 10) + 0x30
                value /= 10
            } while value > 0
            buffer.append(digits.baseAddress! + index, count: 20 - index)
        }
    }

    package mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        if value == value.rounded(), abs(value) < 1e15 {
            if value < 0 { buffer.append(0x2D) }
            integer(UInt64(abs(value)))
        } else {
            var text = "\(value)"
            text.withUTF8 { buffer.append($0.baseAddress!, count: $0.count) }
        }
    }

    package mutating func string(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { string(utf8: $0) }
    }

    /// A string given as its UTF-8 bytes.
    package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(0x22)
        // Fast path: nothing to escape, one bulk copy.
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            if let base = utf8.baseAddress { buffer.append(base, count: utf8.count) }
        } else {
            for byte in utf8 {
                switch byte {
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    buffer.append(hex[Int(byte >> 4)])
                    buffer.append(hex[Int(byte & 0x0F)])
                default: buffer.append(byte)
                }
            }
        }
        buffer.append(0x22)
    }

    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        buffer.append(literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        precondition(depth < Self.maximumDepth, "JSON nested deeper than \(Self.maximumDepth) levels")
        buffer.append(bracket)
        depth += 1
        hasElements &= ~(1 << UInt64(depth - 1))
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        precondition(depth > 0, "a container closed that was not open")
        let had = hasElements & (1 << UInt64(depth - 1)) != 0
        depth -= 1
        if had { newline() }
        buffer.append(bracket)
    }

    @inline(__always)
    private mutating func element() {
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if hasElements & bit != 0 { buffer.append(0x2C) }
        hasElements |= bit
        newline()
    }

    /// LF and the current depth's indentation, in one copy.
    @inline(__always)
    private mutating func newline() {
        let width = min(2 * depth, 256)
        Self.newlineAndSpaces.withUnsafeBufferPointer { buffer.append($0.baseAddress!, count: width + 1) }
    }
}
