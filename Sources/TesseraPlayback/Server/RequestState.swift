/// Per-request state kept in libmicrohttpd's `con_cls` between handler calls (retained there,
/// released in the completion callback).
final class RequestState {
    var uploadedBytes = 0
    var parked: ParkedRequest?
    var method: ServerRequest.Method = .get
    var rangeHeader: String?
}
