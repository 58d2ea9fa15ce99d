/// Reassembles PSI sections (ISO/IEC 13818-1 §2.4.4) from the payloads of transport packets on
/// the PIDs it is given: `pointer_field` at a unit start, sections spanning packets, several
/// sections in one payload, stuffing after the last. Each PID buffers at most one section
/// (1024 bytes); what does not fit or points nowhere is reported and dropped. Shared by the
/// validator and the rebaser.
public struct PSISectionAssembler: Sendable {
    /// What breaks a section's framing.
    public enum Defect: Error, Sendable, Equatable {
        /// `pointer_field` points past its packet.
        case pointerPastPacket
        /// `section_length` is over 1021.
        case sectionTooLong(Int)
    }

    private var pending: [UInt16: [UInt8]] = [:]

    /// An assembler with nothing buffered.
    public init() {}

    /// Forgets what is buffered (a discontinuity, a new stream).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
    }

    /// Feeds the payload of one packet of `pid`; hands each complete section (header through
    /// CRC) or framing defect to `emit`, in order.
    public mutating func consume(pid: UInt16, payload: UnsafeRawBufferPointer, unitStart: Bool,
                                 _ emit: (Result<[UInt8], Defect>) -> Void) {
        if unitStart {
            let pointer = Int(payload[0])
            guard 1 + pointer <= payload.count else {
                emit(.failure(.pointerPastPacket))
                return
            }
            if var buffer = pending[pid] {
                buffer.append(contentsOf: payload[1..<(1 + pointer)])
                pending[pid] = buffer
                drain(pid, emit)
            }
            pending[pid] = Array(payload[(1 + pointer)...])
        } else if pending[pid] != nil {
            pending[pid]?.append(contentsOf: payload)
        } else {
            return
        }
        drain(pid, emit)
    }

    private mutating func drain(_ pid: UInt16, _ emit: (Result<[UInt8], Defect>) -> Void) {
        while let buffer = pending[pid], buffer.count >= 3, buffer[0] != TSConstants.stuffingTableID {
            let length = Int(buffer[1] & 0x0F) << 8 | Int(buffer[2])
            guard length <= TSConstants.maximumSectionLength else {
                emit(.failure(.sectionTooLong(length)))
                pending[pid] = nil
                return
            }
            guard buffer.count >= 3 + length else { return }
            pending[pid] = Array(buffer[(3 + length)...])
            emit(.success(Array(buffer[0..<(3 + length)])))
        }
    }
}
