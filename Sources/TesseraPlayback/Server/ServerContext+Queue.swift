import CMicroHTTPD

extension ServerContext {
    /// Builds the libmicrohttpd response for `response` (ranges, HEAD, streamed bodies) and queues it.
    func queue(_ response: ServerResponse, on connection: OpaquePointer, state: RequestState) -> MHD_Result {
        var status = response.status
        var offset: UInt64 = 0
        let size = response.bodyByteCount
        var length = size
        var extra: [(String, String)] = []
        let rangeable = status == 200 && response.body.isRangeable
        if rangeable {
            extra.append(("Accept-Ranges", "bytes"))
            switch RangeResolution(header: response.servesRanges ? state.rangeHeader : nil, size: size) {
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

    private func queueBodiless(_ status: Int, headers: ResponseHeaders, extra: [(String, String)],
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
        case .stream(let announced, let producer):
            let body = StreamedBody(producer: producer, connection: connection, context: self,
                                    suspensionLimit: configuration.maximumSuspension)
            let cls = Unmanaged.passRetained(body).toOpaque()
            // UInt64.max is MHD_SIZE_UNKNOWN: chunked transfer coding.
            guard let made = MHD_create_response_from_callback(announced ?? UInt64.max, 32 << 10, streamedBodyReader, cls,
                                                               streamedBodyRelease) else {
                Unmanaged<StreamedBody>.fromOpaque(cls).takeRetainedValue().waker.detach()
                return nil
            }
            return made
        }
    }
}

extension ServerResponse.Body {
    /// Bodies the server may slice for `Range`: in memory or in a file.
    var isRangeable: Bool {
        switch self {
        case .bytes, .file: true
        case .empty, .stream: false
        }
    }
}
