import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// The concurrent half of a download: fetch one planned request (retried by the pipeline,
/// mid-body failures refetched), split it into its resources, decrypt each in place with the key
/// in force and prepare it for the container. Runs in parallel; the ordered half is
/// `AssemblyWriter`.
struct ResourceProcessor: Sendable {
    let fetcher: ResourceFetcher
    let plan: DownloadPlan
    let keys: [URL: [UInt8]]
    let limits: TransferLimits
    let maximumResourceBytes: UInt64

    func process(_ fetch: PlannedFetch) async throws(HLSError) -> [FetchedResource] {
        let first = plan.resources[fetch.resources.lowerBound]
        let what = fetch.resources.count == 1 ? first.label
            : "\(first.label) to \(plan.resources[fetch.resources.upperBound - 1].label.lowercased())"
        let expected = fetch.range?.length
        let limit = expected ?? maximumResourceBytes
        var request = HTTPRequest(url: fetch.url, purpose: first.kind == .initialization ? .map : .segment)
        request.byteRange = fetch.range
        request.limits = limits
        request.limits.maximumBodyBytes = limit
        let (head, body) = try await fetcher.fetch(request, what: what, limit: Int(clamping: limit))
        if let expected, UInt64(body.count) != expected {
            throw HLSError(.fetchFailed, "\(what) \(URLRedaction.redact(fetch.url)) answered \(body.count) bytes for a byte range of \(expected).")
        }
        let source = PlanFingerprint.source(fetch.url)
        let validator = PlanFingerprint.validator(head.headers)
        guard fetch.resources.count > 1 else {
            return [try prepare(consume body, first, source: source, validator: validator)]
        }
        var results: [FetchedResource] = []
        var offset = 0
        for index in fetch.resources {
            let resource = plan.resources[index]
            let length = Int(resource.range?.length ?? 0)
            results.append(try prepare(Array(body[offset..<offset + length]), resource, source: source, validator: validator))
            offset += length
        }
        return results
    }

    /// Takes `bytes` over (it is decrypted in place).
    private func prepare(_ bytes: consuming [UInt8], _ resource: PlannedResource, source: String, validator: String?) throws(HLSError) -> FetchedResource {
        let fetched = UInt64(bytes.count)
        guard fetched <= maximumResourceBytes else {
            throw HLSError(.budgetExceeded, "\(resource.label) is \(fetched) bytes, over the budget of \(maximumResourceBytes) per resource.")
        }
        var clear = consume bytes
        if let encryption = resource.encryption {
            guard let key = keys[encryption.keyURL] else { preconditionFailure("keys are fetched before media") }
            do {
                try AES128CBCDecryptor.decryptInPlace(&clear, key: key, iv: encryption.iv, padding: .pkcs7)
            } catch {
                throw HLSError(.decryptFailed, "\(resource.label) did not decrypt (wrong key or IV, or corrupt data): \(error.message)", cause: error)
            }
        }
        let prepared: [UInt8]
        do {
            switch (plan.container, resource.kind) {
            case (.mpegTS, _): prepared = consume clear
            case (.fragmentedMP4, .initialization): prepared = try MP4SegmentAssembly.initialization(clear)
            case (.fragmentedMP4, .segment): prepared = try MP4SegmentAssembly.segment(clear)
            }
        } catch {
            throw HLSError(.malformedMedia, "\(resource.label) is not valid fMP4\(resource.encryption == nil ? "" : " after decryption (wrong key?)"): \(error.message)", cause: error)
        }
        return FetchedResource(index: resource.index, bytes: prepared, fetchedBytes: fetched, source: source, validator: validator)
    }
}
