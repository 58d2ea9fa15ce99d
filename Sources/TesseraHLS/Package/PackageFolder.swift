#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// A package folder as a job writes it — the per-resource output of the transfer engine that
/// offline packages and recordings stand on: each resource goes to its own file under the
/// staging folder (resources named to one file, consecutive byte ranges of one source, are
/// appended to it in order), with a running SHA-256 per file, and checkpoints that record each
/// file's length and digest at every resource it took. A later run restores what the checkpoint
/// vouches for — every kept file is read back and must give its recorded digest; a file that
/// does not is cut back or removed — and fetches only the rest. Once the media is in, `finish`
/// writes the package's empty files, playlists and manifests; nothing reaches the destination
/// until `commit` publishes the folder in one step. One owner; not `Sendable`.
package final class PackageFolder: TransferOutput {
    /// One file the folder holds, as a manifest lists it.
    package struct WrittenFile: Sendable, Equatable {
        /// Its path inside the staging folder.
        package let path: SafeRelativePath
        /// Its size.
        package let byteCount: UInt64
        /// Its SHA-256; nil for a file staged with a checksum only (`StagedFileCheck`: a streamed
        /// movie's body, never listed in a manifest).
        package let sha256: SHA256Digest?

        /// A file at `path` of `byteCount` bytes hashing to `sha256`.
        package init(path: SafeRelativePath, byteCount: UInt64, sha256: SHA256Digest?) {
            self.path = path
            self.byteCount = byteCount
            self.sha256 = sha256
        }
    }

    /// The hidden folder the package is staged in.
    package let staging: StagingDirectory
    private let checkpoint: CheckpointLog<ResourceFileRecord>
    private let place: (PlannedResource) throws(HLSError) -> SafeRelativePath
    package let spillFolder: String
    private var schedule: CheckpointSchedule
    private var current: (path: SafeRelativePath, file: DurableFile, check: StagedFileCheck)?
    /// The files complete so far, unless `listsFromCheckpoint` (then the checkpoint lists them).
    private var finished: [SafeRelativePath: WrittenFile] = [:]
    /// Whether the files complete are listed from the checkpoint, read back, rather than held in
    /// memory: a recording of days holds nothing per file it wrote.
    private let listsFromCheckpoint: Bool
    private var pendingRecords: [ResourceFileRecord] = []
    /// The records the checkpoint holds, without their payloads (`mux`: they live in the log
    /// alone, a streamed movie's would otherwise grow with every segment) — when `evicts`, else
    /// none: they live in the log alone.
    private var kept: [ResourceFileRecord] = []
    /// When the checkpoint, still listing evicted files, is rewritten without them (`evict`).
    private var compaction = CheckpointCompaction()
    /// Whether files may be evicted (rolling retention): the checkpoint's records are kept in
    /// memory too, to rewrite it without them.
    private let evicts: Bool
    private var validators = SourceValidators()
    /// Files restored from a checkpoint, which later resources may continue.
    private var restored: Set<SafeRelativePath> = []
    /// Resources written (restored ones included).
    package private(set) var resourcesDone = 0
    /// Bytes written in this run.
    package private(set) var bytesWritten: UInt64 = 0
    /// Bytes of the files a checkpoint vouched for (`restore`).
    package private(set) var restoredBytes: UInt64 = 0
    /// The resources its server could not give (`PlannedFetch.gapWhenUnavailable`), with why
    /// (restored ones: "unavailable when first recorded").
    package private(set) var unavailable: [ResourceIdentity: HLSError] = [:]
    /// Unavailable resources written one after another, up to the last one.
    package private(set) var consecutiveUnavailable = 0
    /// Called for each resource written with its file's path in the folder, where in that file
    /// it goes, and its bytes when they are in memory — then while they are written, on another
    /// thread (it must not touch the folder) — else once they are in the file: a movie times its
    /// segments as they arrive. Not called for unavailable or restored resources.
    package var onWritten: ((SafeRelativePath, Range<UInt64>, [UInt8]?) -> Void)?
    /// Turns a resource into other bytes for another file before it is written (nil: written as
    /// it is): a streamed movie's media segments become the samples of its body file. Called in
    /// order, on the writing thread; its payload goes into the resource's record. `onWritten` is
    /// not called for what it transformed.
    package var transform: ((FetchedResource) throws(HLSError) -> TransformedResource?)?
    /// After `restore`, the records it vouched for with their payloads, in order (a transform
    /// restores itself from them); emptied by `takeVouched`.
    package private(set) var vouched: [ResourceFileRecord] = []
    /// The last resource its server could not give, and why.
    package private(set) var lastUnavailable: (identity: ResourceIdentity, error: HLSError)?

    /// A folder writing into `staging`, naming each resource's file with `place`, spilling to
    /// `spillFolder` (beside the staging folder, never inside it); `evicts` when `evict` may be
    /// called; `listsFromCheckpoint` to list its complete files from the checkpoint read back (a
    /// folder without a `transform`, whose records carry no payload).
    package init(staging: StagingDirectory, checkpoint: CheckpointLog<ResourceFileRecord>, spillFolder: String,
         checkpointBytes: UInt64 = 8 << 20, checkpointInterval: Duration = .seconds(1), clock: any Clock<Duration>, evicts: Bool = false,
         listsFromCheckpoint: Bool = false, place: @escaping (PlannedResource) throws(HLSError) -> SafeRelativePath) {
        self.staging = staging
        self.evicts = evicts
        self.listsFromCheckpoint = listsFromCheckpoint
        self.checkpoint = checkpoint
        self.spillFolder = spillFolder
        self.place = place
        schedule = CheckpointSchedule(bytes: checkpointBytes, interval: checkpointInterval, clock: clock)
    }

    // MARK: Restore

    /// Keeps what `records` vouch for: each file is hashed from its start and must give the
    /// recorded digest at each recorded length; a file that does not is cut back to its last
    /// good record (or removed), and the records after it in that file are dropped; files no
    /// kept record names are removed. Returns the identities of the resources kept.
    /// - Throws: `destination-unwritable`.
    package func restore(_ records: [ResourceFileRecord]) throws(HLSError) -> Set<ResourceIdentity> {
        var byFile: [String: [ResourceFileRecord]] = [:]
        var order: [String] = []
        for record in records where record.unavailable != true {
            if byFile[record.path] == nil { order.append(record.path) }
            byFile[record.path, default: []].append(record)
        }
        var identities: Set<ResourceIdentity> = []
        kept = []
        unavailable = [:]
        for record in records where record.unavailable == true {
            guard let identity = record.identity else { continue }
            identities.insert(identity)
            unavailable[identity] = HLSError(.fetchFailed, "\(identity.kind.rawValue.capitalized) \(identity.mediaSequence) of \(identity.stream) could not be fetched when it was first recorded.")
            kept.append(record)
        }
        for name in order {
            guard let path = SafeRelativePath(name), let fileRecords = byFile[name] else { continue }
            let good = try verify(path, fileRecords)
            for record in good {
                if let identity = record.identity { identities.insert(identity) }
                validators.restore(source: record.source, pathway: record.pathway, validator: record.validator, file: record.path)
            }
            kept += good
            if let last = good.last {
                if !listsFromCheckpoint { finished[path] = WrittenFile(path: path, byteCount: last.end, sha256: SHA256Digest(hex: last.sha256)) }
                restored.insert(path)
                restoredBytes += last.end
            }
        }
        // Whatever no kept record names (written after the last checkpoint, or by another plan)
        // must not reach the package.
        let named = Set(kept.map(\.path))
        for stray in staging.files where !named.contains(stray) {
            if let path = SafeRelativePath(stray) { staging.remove(path) }
        }
        resourcesDone = kept.count
        try checkpoint.reset(keeping: kept)
        vouched = kept
        kept = evicts ? kept.map(Self.withoutPayload) : []
        return identities
    }

    // MARK: Writing

    /// Writes the next resource to its file.
    /// - Throws: `source-changed` when the resource's file answered with other validators
    ///   before (its bytes would not belong together); `destination-unwritable`.
    package func write(_ fetched: FetchedResource) throws(HLSError) {
        let placed = try place(fetched.resource)
        let identity = fetched.resource.identity
        if let reason = fetched.unavailable {
            // No file: a record that says so, so a resume neither fetches it again nor looks for it.
            try finishCurrent()
            unavailable[identity] = reason
            lastUnavailable = (identity, reason)
            consecutiveUnavailable += 1
            pendingRecords.append(ResourceFileRecord(path: placed.value, stream: identity.stream.rawValue, kind: identity.kind.rawValue,
                                                     sequence: identity.mediaSequence, part: identity.partIndex,
                                                     rangeOffset: identity.byteRange?.offset, rangeLength: identity.byteRange?.length,
                                                     end: 0, sha256: "", source: "", unavailable: true))
            schedule.wrote(1)
            resourcesDone += 1
            return
        }
        consecutiveUnavailable = 0
        try validators.check(fetched, file: placed.value)
        let transformed = try transform?(fetched)
        let path = transformed?.path ?? placed
        if current?.path != path {
            try finishCurrent()
            // A file restored from a checkpoint takes the resources that follow its last record.
            let continues = restored.remove(path) != nil
            guard continues || !isComplete(path) else {
                throw HLSError(.unsupported, "\(fetched.resource.label) goes to \(path), which is already complete; the resources of one file must come one after another.")
            }
            finished[path] = nil
            let file: DurableFile
            do throws(SupportError) { file = try staging.file(at: path, contents: continues ? .keep : .empty) } catch { throw HLSError(destination: error) }
            // What a transform makes only the job reads back: a checksum, not a digest.
            let check = try StagedFileCheck(transformed == nil ? .sha256 : .crc32c)
            if continues {
                guard Self.check(file, from: 0, upTo: file.size, into: check) else {
                    throw HLSError(.destinationUnwritable, "The restored file \(path) could not be read back.")
                }
            }
            current = (path, file, check)
        }
        guard let current else { preconditionFailure("a current file was just opened") }
        let region = current.file.size..<(current.file.size + (transformed.map { UInt64($0.count) } ?? fetched.body.count))
        // A body in memory is offered to `onWritten` beside its write, with the hashing; a
        // spilled one once it is in its file. What `transform` made is not offered.
        var offer: (([UInt8]) -> Void)?
        if transformed == nil, let onWritten, case .memory = fetched.body { offer = { onWritten(path, region, $0) } }
        func append(_ chunk: [UInt8]) throws(HLSError) {
            // Hashed (and offered) on one thread while the other writes.
            do throws(SupportError) {
                try SideBySide.run(bytes: chunk.count, { () throws(SupportError) in
                    current.check.update(chunk)
                    offer?(chunk)
                }, { () throws(SupportError) in try current.file.append(chunk) })
            } catch {
                throw HLSError(destination: error)
            }
            bytesWritten += UInt64(chunk.count)
            schedule.wrote(UInt64(chunk.count))
        }
        if let transformed {
            // Hashed on one thread while the other writes the pieces where they lie; a transform
            // makes one file's bytes to the end (a streamed movie's body): its writeback starts
            // now, so the flush before it is published waits for little.
            let count = transformed.count
            do throws(SupportError) {
                try SideBySide.run(bytes: count, { () throws(SupportError) in
                    for piece in transformed.pieces { piece.withUnsafeBytes { current.check.update($0) } }
                }, { () throws(SupportError) in try current.file.append(pieces: transformed.pieces) })
            } catch {
                throw HLSError(destination: error)
            }
            bytesWritten += UInt64(count)
            schedule.wrote(UInt64(count))
            current.file.startWriteback(at: region.lowerBound, count: count)
        } else {
            try fetched.body.forEachChunk { chunk throws(HLSError) in try append(chunk) }
            // Its writeback starts now, beside the next resources' transfers: the flush before
            // the package is published then waits for little (it was a third of a package's time).
            current.file.startWriteback(at: region.lowerBound, count: Int(region.upperBound - region.lowerBound))
        }
        let check = current.check.recorded()
        pendingRecords.append(ResourceFileRecord(path: path.value, stream: identity.stream.rawValue, kind: identity.kind.rawValue,
                                                 sequence: identity.mediaSequence, part: identity.partIndex,
                                                 rangeOffset: identity.byteRange?.offset, rangeLength: identity.byteRange?.length,
                                                 end: current.file.size, sha256: check.sha256,
                                                 source: fetched.source, validator: fetched.validator, pathway: fetched.pathway,
                                                 key: fetched.keyFingerprint?.hex, mux: transformed?.payload, crc32c: check.crc32c))
        resourcesDone += 1
        if transformed == nil, let onWritten, offer == nil { onWritten(path, region, nil) }
    }

    /// Every file complete so far (the one last written closed first: a snapshot takes it), by path.
    /// - Throws: `destination-unwritable`.
    package func completeFiles() throws(HLSError) -> [WrittenFile] {
        try finishCurrent()
        return try listed()
    }

    /// Every file complete, by path: those held, or those the checkpoint lists (made durable
    /// first; called between two writes), each at its last record.
    private func listed() throws(HLSError) -> [WrittenFile] {
        guard listsFromCheckpoint else { return finished.values.sorted { $0.path.value < $1.path.value } }
        try checkpointIfDue(force: true)
        var files: [String: WrittenFile] = [:]
        for record in try checkpoint.entries() where record.unavailable != true {
            guard let path = SafeRelativePath(record.path) else { continue }
            files[record.path] = WrittenFile(path: path, byteCount: record.end, sha256: record.crc32c == nil ? SHA256Digest(hex: record.sha256) : nil)
        }
        return files.values.sorted { $0.path.value < $1.path.value }
    }

    /// Whether the file at `path` is complete (it is not the current one).
    private func isComplete(_ path: SafeRelativePath) -> Bool {
        listsFromCheckpoint ? staging.size(of: path) != nil : finished[path] != nil
    }

    /// Hands the records `restore` vouched for over, once.
    package func takeVouched() -> [ResourceFileRecord] {
        defer { vouched = [] }
        return vouched
    }

    /// `record` as memory keeps it: its payload lives in the log.
    private static func withoutPayload(_ record: ResourceFileRecord) -> ResourceFileRecord {
        var record = record
        record.mux = nil
        return record
    }

    /// The size of the finished file at `path` (nil: none, or not finished).
    package func size(of path: String) -> UInt64? {
        SafeRelativePath(path).flatMap { path in
            guard current?.path != path else { return nil }
            return listsFromCheckpoint ? staging.size(of: path) : finished[path]?.byteCount
        }
    }

    /// Drops the finished files at `paths` (rolling retention) and deletes them. `resourcesDone`
    /// stays: it counts every resource written. The checkpoint is rewritten without their records
    /// only now and then (`CheckpointCompaction`), so it may still list files that are gone: the
    /// owner records the eviction durably first and restores only the records it still names
    /// (`RecordingOutput.restore`). Not for a folder with a `transform` (the log rewritten from
    /// the records in memory would lose their payloads).
    /// - Throws: `destination-unwritable`.
    package func evict(_ paths: Set<String>) throws(HLSError) {
        guard !paths.isEmpty else { return }
        precondition(transform == nil && evicts, "a folder evicts only when made to, and never one whose records carry payloads")
        let before = kept.count
        kept.removeAll { paths.contains($0.path) }
        if compaction.evicted(before - kept.count, kept: kept.count) {
            try checkpointIfDue(force: true)
            try checkpoint.reset(keeping: kept)
        }
        for name in paths {
            guard let path = SafeRelativePath(name), current?.path != path else { continue }
            finished[path] = nil
            restored.remove(path)
            staging.remove(path)
        }
    }

    /// Lists the file being written as finished. Its data is flushed with the whole tree when the
    /// staging folder is committed: a checkpoint vouches for digests, and a resume re-hashes every
    /// file it keeps, so bytes a crash lost are cut back, never trusted.
    private func finishCurrent() throws(HLSError) {
        guard let current else { return }
        if !listsFromCheckpoint {
            finished[current.path] = WrittenFile(path: current.path, byteCount: current.file.size, sha256: current.check.finalize())
        }
        current.file.close()
        validators.forget(file: current.path.value)
        self.current = nil
    }

    /// At a fetch boundary: records what was written when enough has accumulated or the
    /// interval has passed (or always, with `force`). The records hold each file's length and
    /// digest; the files are not flushed here (see `finishCurrent`).
    package func checkpointIfDue(force: Bool = false) throws(HLSError) {
        guard !pendingRecords.isEmpty, schedule.take(force: force) else { return }
        try checkpoint.append(pendingRecords)
        if evicts { kept += pendingRecords.map(Self.withoutPayload) }
        pendingRecords.removeAll(keepingCapacity: true)
    }

    /// Ends the transfer: the last file closed, a final checkpoint, and every file the folder
    /// holds (restored and new) with its size and SHA-256, by path.
    /// - Throws: `destination-unwritable`.
    package func finishMedia() throws(HLSError) -> [WrittenFile] {
        try finishCurrent()
        try checkpointIfDue(force: true)
        return try listed()
    }

    // MARK: Publication

    /// Publishes the folder at the destination in one step.
    /// - Throws: `destination-exists`, `destination-unwritable`.
    package func commit() throws(HLSError) {
        do { _ = try staging.commit() } catch { throw HLSError(destination: error) }
    }

    /// After a failure: keeps the staged folder for a later run, or removes it.
    package func settle(keeping: Bool) {
        if keeping { staging.keep() } else { staging.discard() }
    }
}
