import TesseraSupport

/// Reading back what is staged: a restored file checked against its records, a continued one
/// checked up to its end.
extension PackageFolder {
    /// The records of one file its bytes still match; the file is cut to the last of them.
    func verify(_ path: SafeRelativePath, _ records: [ResourceFileRecord]) throws(HLSError) -> [ResourceFileRecord] {
        guard let size = staging.size(of: path) else { return [] }
        let file: DurableFile
        do throws(SupportError) { file = try staging.file(at: path, contents: .keep) } catch { throw HLSError(destination: error) }
        defer { file.close() }
        guard let first = records.first else { return [] }
        let check = try StagedFileCheck(StagedFileCheck.kind(of: first))
        var good: [ResourceFileRecord] = []
        var offset: UInt64 = 0
        for record in records {
            guard record.end >= offset, record.end <= size,
                  Self.check(file, from: offset, upTo: record.end, into: check), check.matches(record) else { break }
            offset = record.end
            good.append(record)
        }
        let end = good.last?.end ?? 0
        if end == 0 {
            staging.remove(path)
        } else if end < size {
            do { try file.truncate(to: end) } catch { throw HLSError(destination: error) }
        }
        return good
    }

    /// Checks the bytes of `file` from `offset` up to `end` into `check`, a spill chunk at a
    /// time; false when they cannot be read back.
    static func check(_ file: DurableFile, from offset: UInt64, upTo end: UInt64, into check: StagedFileCheck) -> Bool {
        var offset = offset
        while offset < end {
            let count = Int(min(UInt64(SpillFile.chunkBytes), end - offset))
            guard let chunk = file.read(at: offset, count: count) else { return false }
            check.update(chunk)
            offset += UInt64(count)
        }
        return true
    }
}
