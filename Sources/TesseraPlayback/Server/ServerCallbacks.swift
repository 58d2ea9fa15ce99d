import CMicroHTTPD

// libmicrohttpd's callbacks: capture-free closures of the imported C types, forwarding to the
// `ServerContext` passed as their closure pointer.

let serverAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, requestSlot in
    guard let cls, let connection, let url, let method, let uploadSize, let requestSlot else { return .NO }
    return Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        .handle(connection: connection, url: url, method: method, uploadSize: uploadSize, requestSlot: requestSlot)
}

let serverRequestCompleted: MHD_RequestCompletedCallback = { cls, connection, requestSlot, _ in
    guard let cls else { return }
    Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        .completed(connection: connection, requestSlot: requestSlot)
}

let serverConnectionNotify: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        context.watchdog.connectionOpened(connection, descriptor: cmhd_connection_fd(connection))
    case .CONNECTION_NOTIFY_CLOSED:
        context.watchdog.connectionClosed(connection)
    @unknown default:
        break
    }
}

let streamedBodyReader: MHD_ContentReaderCallback = { cls, position, buffer, capacity in
    guard let cls, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
    return Unmanaged<StreamedBody>.fromOpaque(cls).takeUnretainedValue()
        .read(position: position, into: buffer, capacity: capacity)
}

let streamedBodyRelease: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let body = Unmanaged<StreamedBody>.fromOpaque(cls).takeRetainedValue()
    body.waker.detach()
}
