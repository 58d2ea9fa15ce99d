import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The curl callbacks, run by the engine's driver only (its loop thread, or a caller driving it).
extension CurlTransfer {
    /// Returning anything but `bytes.count` makes curl abort with CURLE_WRITE_ERROR.
    func onHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        let abort = 0
        if loop.failure != nil { return abort }
        loop.headerBytes += bytes.count
        guard loop.headerBytes <= request.limits.maximumHeaderBytes else {
            loop.failure = HTTPError(.protocol, code: .headersTooLarge,
                                     "The response header block of \(redactedURL) is over \(request.limits.maximumHeaderBytes) bytes.")
            return abort
        }
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        if end >= 5, bytes[0] == 0x48, bytes[1] == 0x54, bytes[2] == 0x54, bytes[3] == 0x50, bytes[4] == 0x2F {   // "HTTP/"
            loop.headerFields = HTTPHeaders()
            return bytes.count
        }
        if end > 0 {
            if let colon = bytes[0..<end].firstIndex(of: 0x3A) {
                loop.headerFields.add(Self.trimmed(bytes, 0, colon), Self.trimmed(bytes, colon + 1, end))
            }
            return bytes.count
        }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if (100..<200).contains(status) { return bytes.count }
        switch headFor(status: status) {
        case .success(let head):
            deliverHead(.success(head), onLoopThread: true)
            return bytes.count
        case .failure(let error):
            loop.failure = error
            return abort
        }
    }

    /// The text of `bytes[start..<end]` without surrounding spaces and tabs.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        var start = start
        var end = end
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Builds the head, checking a range request's answer and the announced length.
    private func headFor(status: Int) -> Result<HTTPResponseHead, HTTPError> {
        let headers = loop.headerFields
        var served = HTTPResponseHead.ServedRange.whole
        if let range = request.byteRange, (200..<300).contains(status) {
            if status == 206 {
                guard let value = headers["Content-Range"], let content = ContentRange(headerValue: value) else {
                    return .failure(HTTPError(.protocol, code: .rangeMismatch,
                                              "\(redactedURL) answered a range request with 206 but no usable Content-Range."))
                }
                let expectedLast = range.lastByte.map { last in content.completeLength.map { min(last, $0 - 1) } ?? last }
                guard content.first == range.offset, expectedLast.map({ $0 == content.last }) ?? true else {
                    return .failure(HTTPError(.protocol, code: .rangeMismatch,
                                              "\(redactedURL) sent bytes \(content.first)-\(content.last) for a request of \(range)."))
                }
                served = .partial(content)
            } else if request.rangeFallback == .whole {
                served = .whole
            } else {
                guard request.rangeFallback == .emulate else {
                    return .failure(HTTPError(.protocol, code: .rangeNotHonoured,
                                              "\(redactedURL) ignored the request for \(range) and sent status \(status)."))
                }
                loop.isEmulatingRange = true
                loop.skipRemaining = range.offset
                loop.deliverRemaining = range.length
                served = .emulated(range)
            }
        }
        if request.method != .head, let announced = headers["Content-Length"].flatMap({ UInt64($0) }),
           announced > request.limits.maximumBodyBytes {
            return .failure(HTTPError(.tooLarge, code: .bodyTooLarge,
                                      "\(redactedURL) announced \(announced) bytes, over the \(request.limits.maximumBodyBytes)-byte limit."))
        }
        return .success(HTTPResponseHead(status: status, headers: headers, url: effectiveURL, servedRange: served,
                                         httpVersion: httpVersion, timings: timings))
    }

    /// The URL curl fetched: the request's own, unless curl wrote it differently (redirects are
    /// followed by the pipeline hop by hop, so only curl's normalisation can differ), without
    /// parsing a URL per response.
    private var effectiveURL: URL {
        var effective: UnsafePointer<CChar>?
        _ = ccurl_getinfo_str(handle, CURLINFO_EFFECTIVE_URL, &effective)
        guard let effective else { return request.url }
        let text = String(cString: effective)
        return text == request.url.absoluteString ? request.url : URL(string: text) ?? request.url
    }

    /// The version curl negotiated, as `1.1`, `2`, …
    private var httpVersion: String {
        var version = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "1.0"
        case Int(CURL_HTTP_VERSION_1_1): return "1.1"
        case Int(CURL_HTTP_VERSION_2_0): return "2"
        case Int(CURL_HTTP_VERSION_3): return "3"
        default: return ""
        }
    }

    /// curl's phase timings so far.
    private var timings: TransferTimings {
        func micros(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            _ = ccurl_getinfo_off(handle, info, &value)
            return Int64(value)
        }
        return TransferTimings(dnsLookup: micros(CURLINFO_NAMELOOKUP_TIME_T), connect: micros(CURLINFO_CONNECT_TIME_T),
                               tlsHandshake: micros(CURLINFO_APPCONNECT_TIME_T),
                               requestStart: micros(CURLINFO_PRETRANSFER_TIME_T),
                               firstByte: micros(CURLINFO_STARTTRANSFER_TIME_T))
    }

    func deliverHead(_ result: Result<HTTPResponseHead, HTTPError>, onLoopThread: Bool) {
        loop.isHeadDelivered = true
        let continuation = shared.withLock { state -> CurlTransferShared.HeadContinuation? in
            if state.headResult == nil { state.headResult = result }
            defer { state.headContinuation = nil }
            return state.headContinuation
        }
        guard let continuation else { return }
        resume(onLoopThread) { continuation.resume(returning: result) }
    }

    /// Resumes a reader: at the end of the loop iteration on the loop thread, at once elsewhere.
    private func resume(_ onLoopThread: Bool, _ work: @escaping () -> Void) {
        if onLoopThread {
            engine.resumeAtEndOfIteration(work)
        } else {
            work()
        }
    }

    /// Body bytes: bounded buffering with pause, range emulation and the body-size limit.
    func onBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        let abort = 0
        if loop.failure != nil || loop.completedEarly { return abort }
        // Pause before counting anything: curl delivers this exact chunk again after unpause.
        let verdict = shared.withLock { state -> Int? in
            if state.isConsumerGone || state.cancellation != nil { return abort }
            if state.bufferedBytes >= request.limits.bufferHighWatermark {
                state.isPaused = true
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            return nil
        }
        if let verdict { return verdict }

        loop.receivedBytes += UInt64(bytes.count)
        guard loop.receivedBytes <= request.limits.maximumBodyBytes else {
            loop.failure = HTTPError(.tooLarge, code: .bodyTooLarge,
                                     "The body of \(redactedURL) passed the \(request.limits.maximumBodyBytes)-byte limit.")
            return abort
        }
        var slice = bytes[...]
        if loop.isEmulatingRange {
            let skip = Int(min(UInt64(slice.count), loop.skipRemaining))
            loop.skipRemaining -= UInt64(skip)
            slice = slice.dropFirst(skip)
            if let remaining = loop.deliverRemaining {
                let take = Int(min(UInt64(slice.count), remaining))
                slice = slice.prefix(take)
                loop.deliverRemaining = remaining - UInt64(take)
            }
        }
        if !slice.isEmpty { hand(UnsafeRawBufferPointer(rebasing: slice)) }
        if loop.isEmulatingRange, loop.deliverRemaining == 0 {
            loop.completedEarly = true
            return abort
        }
        return bytes.count
    }

    /// Hands `bytes` on, in one step under the lock (so that no chunk can pass another): into
    /// the destination of a reader waiting in `deliver(into:)`, or of one away from a destination
    /// that writes a file — waking a waiting reader once the destination reaches its pause
    /// point, or when `bytes` do not fit it (they are queued and the destination let go) —, else
    /// to a reader waiting for a chunk, else onto the queue.
    private func hand(_ bytes: UnsafeRawBufferPointer) {
        enum Wake {
            case none
            case chunk(CurlTransferShared.ChunkContinuation, [UInt8])
            case delivery(CurlTransferShared.DeliveryContinuation, HTTPBodyDelivery)
        }
        let wake = shared.withLock { state -> Wake in
            if let destination = state.destination {
                let taken = destination.append(bytes)
                if taken, !destination.reachedPause { return .none }
                if !taken {
                    state.chunks.append(Array(bytes))
                    state.bufferedBytes += bytes.count
                }
                if !taken || !destination.writesFile { state.destination = nil }
                defer { state.deliveryWaiter = nil }
                return state.deliveryWaiter.map { .delivery($0, taken ? .paused : .full) } ?? .none
            }
            let chunk = Array(bytes)
            if let waiter = state.waiter {
                state.waiter = nil
                return .chunk(waiter, chunk)
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            return .none
        }
        switch wake {
        case .none: break
        case .chunk(let waiter, let chunk): engine.resumeAtEndOfIteration { waiter.resume(returning: .success(chunk)) }
        case .delivery(let waiter, let delivery): engine.resumeAtEndOfIteration { waiter.resume(returning: .success(delivery)) }
        }
    }

    /// Ends the transfer for consumers: resumes whoever waits, exactly once.
    func finish(_ result: Result<Void, HTTPError>, onLoopThread: Bool = true) {
        if !loop.isHeadDelivered {
            loop.isHeadDelivered = true
            let failure: HTTPError
            switch result {
            case .failure(let error): failure = error
            case .success: failure = HTTPError(.protocol, code: .noResponse,
                                               "\(redactedURL) ended without a response head.")
            }
            deliverHead(.failure(failure), onLoopThread: onLoopThread)
        }
        let (waiter, deliveryWaiter) = shared.withLock { state -> (CurlTransferShared.ChunkContinuation?, CurlTransferShared.DeliveryContinuation?) in
            if state.end == nil { state.end = result }
            // A reader in `deliver` has every byte: chunks are queued only while none is there.
            let delivery = state.deliveryWaiter
            state.deliveryWaiter = nil
            state.destination = nil
            defer { state.waiter = nil }
            return (state.chunks.isEmpty ? state.waiter : nil, delivery)
        }
        if let deliveryWaiter {
            resume(onLoopThread) { deliveryWaiter.resume(returning: result.map { .ended }) }
        }
        guard let waiter else { return }
        resume(onLoopThread) {
            switch result {
            case .success: waiter.resume(returning: .success(nil))
            case .failure(let error): waiter.resume(returning: .failure(error))
            }
        }
    }
}
