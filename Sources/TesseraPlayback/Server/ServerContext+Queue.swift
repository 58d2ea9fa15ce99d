import CMicroHTTPD
import TesseraHTTP

extension ServerContext {
    /// Builds the libmicrohttpd response for `response` (ranges, HEAD, faults) and queues it.
    func queue(_ response: ServerResponse, on connection: OpaquePointer, state: RequestState) -> MHD_Result {
        var status = response.status
        var offset: UInt64 = 0
        let size = response.bodyByteCount
        var length = size
        var extra: [(String, String)] = []
        let rangeable = status == 200 && response.body.isRangeable && response.rangeHandling == .honour
        if rangeable {
            extra.append(("Accept-Ranges", "bytes"))
            switch RangeResolution(header: state.rangeHeader, size: size) {
            case .whole: break
            case .partial(let from, let count):
                status = 206
                offset = from
                length = count
                extra.append(("Content-Range", "bytes \(from)-\(from + count - 1)/\(size)"))
            case .unsatisfiable:
                return queueBodiless(416, headers: response.headers,
                                     extra: [("Content-Range", "bytes */\(size)")], on: connection)
            }
        }
        guard let mhdResponse = makeResponse(response, offset: offset, length: length, connection: connection) else {
            return .NO
        }
        for field in response.headers { _ = MHD_add_response_header(mhdResponse, field.name, field.value) }
        for (name, value) in extra { _ = MHD_add_response_header(mhdResponse, name, value) }
        let result = MHD_queue_response(connection, UInt32(status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    private func queueBodiless(_ status: Int, headers: HTTPHeaders, extra: [(String, String)],
                               on connection: OpaquePointer) -> MHD_Result {
        guard let response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) else { return .NO }
        for field in headers where field.name.lowercased() != "content-type" {
            _ = MHD_add_response_header(response, field.name, field.value)
        }
        for (name, value) in extra { _ = MHD_add_response_header(response, name, value) }
        let result = MHD_queue_response(connection, UInt32(status), response)
        MHD_destroy_response(response)
        return result
    }

    private func makeResponse(_ response: ServerResponse, offset: UInt64, length: UInt64,
                              connection: OpaquePointer) -> OpaquePointer? {
        switch response.delivery {
        case .normal:
            break
        case .truncated, .stalled, .unannouncedLength:
            let ending: FaultyBody.Ending
            let cutAt: UInt64
            switch response.delivery {
            case .truncated(let after): (ending, cutAt) = (.cut, min(after, length))
            case .stalled(let after): (ending, cutAt) = (.stall, min(after, length))
            default: (ending, cutAt) = (.endOfStream, length)
            }
            let faulty = FaultyBody(body: response.body, start: offset, cutAt: cutAt, ending: ending,
                                    connection: connection, context: self,
                                    stallLimit: configuration.maximumSuspension)
            let announced = ending == .endOfStream ? UInt64.max : length   // UInt64.max is MHD_SIZE_UNKNOWN
            let cls = Unmanaged.passRetained(faulty).toOpaque()
            guard let made = MHD_create_response_from_callback(announced, 32 << 10, faultyBodyReader, cls,
                                                               faultyBodyRelease) else {
                Unmanaged<FaultyBody>.fromOpaque(cls).release()
                return nil
            }
            return made
        }
        switch response.body {
        case .empty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { raw in
                let slice = UnsafeMutableRawPointer(mutating: raw.baseAddress.map { $0 + Int(offset) })
                return MHD_create_response_from_buffer(Int(length), slice, .RESPMEM_MUST_COPY)
            }
        case .file(let file):
            guard let fd = file.take() else { return nil }
            guard let made = MHD_create_response_from_fd_at_offset64(length, fd, offset) else {
                close(fd)
                return nil
            }
            return made
        }
    }
}

extension ServerResponse.Body {
    /// Bodies the server may slice for `Range`.
    var isRangeable: Bool {
        if case .empty = self { return false }
        return true
    }
}
