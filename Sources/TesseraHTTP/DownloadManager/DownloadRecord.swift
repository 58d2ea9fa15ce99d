/// One line of a `DownloadManager`'s state log. URLs with a query or a JWT-like path segment are
/// not stored (signed values never reach the disk); their downloads come back as `needsURL`.
struct DownloadRecord: Codable {
    enum Operation: String, Codable {
        case add, validator, pause, resume, complete, fail, remove, url
    }

    var id: String
    var op: Operation
    /// The URL, only when it carries nothing secret-looking (no query, no JWT-like segment).
    var url: String?
    /// The SHA-256 of the URL's host, port and path, kept to check a URL given again.
    var place: String?
    var fileName: String?
    var etag: String?
    var lastModified: String?
    var total: Int64?
    var path: String?
    var code: String?
    var message: String?

    init(id: String, op: Operation) {
        self.id = id
        self.op = op
    }
}
