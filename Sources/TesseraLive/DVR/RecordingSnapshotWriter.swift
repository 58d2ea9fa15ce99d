#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// Writes a recording's in-progress snapshot in two halves. `stage`, between two writes of the
/// transfer (so no eviction can take a file meanwhile): a hidden folder beside the destination
/// holding a hard link to each media file of the package (a copy where the volume cannot link),
/// its playlists and manifests. `publish`, in its own task: the folder verified (every file
/// hashed against the manifest) and published as `<dir>.snapshot-<n>` with one rename; one that
/// does not verify is removed.
enum RecordingSnapshotWriter {
    /// A staged snapshot.
    struct Staged: Sendable {
        let hidden: String
        let folder: URL
        let segments: Int
        let duration: Double
    }

    /// Stages `package`, whose media are in `staging`, as the first free `<destination>.snapshot-<n>`.
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    static func stage(_ package: RecordingPackage, from staging: StagingDirectory, beside destination: URL) throws(HLSError) -> Staged {
        let parent = destination.deletingLastPathComponent()
        var index = 1
        var folder: URL
        var hidden: String
        repeat {
            folder = parent.appendingPathComponent("\(destination.lastPathComponent).snapshot-\(index)")
            hidden = parent.path + "/." + folder.lastPathComponent + ".tessera-partial"
            index += 1
        } while FileManager.default.fileExists(atPath: folder.path) || FileManager.default.fileExists(atPath: hidden)
        let snapshot: StagingDirectory
        do throws(SupportError) { snapshot = try StagingDirectory(destination: folder, policy: .refuse, resumableAt: hidden) } catch {
            throw HLSError(destination: error)
        }
        do throws(HLSError) {
            for file in package.media {
                let source = staging.stagingPath + "/" + file.path.value
                let target = hidden + "/" + file.path.value
                let folder = URL(fileURLWithPath: target).deletingLastPathComponent()
                do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                    throw HLSError(.destinationUnwritable, "The snapshot folder \(folder.path) cannot be made: \(error)", cause: error)
                }
                guard link(source, target) != 0 else { continue }
                // Another volume or one without hard links: a copy.
                do { try FileManager.default.copyItem(atPath: source, toPath: target) } catch {
                    throw HLSError(.destinationUnwritable, "\(file.path.value) cannot be linked or copied into the snapshot: \(error)", cause: error)
                }
            }
            _ = try PackageFolder.finish(package.contents, media: package.media, in: snapshot)
        } catch {
            snapshot.discard()
            throw error
        }
        snapshot.keep()
        return Staged(hidden: hidden, folder: folder, segments: package.segments, duration: package.primary.duration)
    }

    /// Verifies `staged` and publishes it, unless `abandoned` says no one wants it any more.
    /// - Throws: `destination-unwritable` (it did not verify, or could not be published: removed),
    ///   `destination-exists`, `cancelled` (abandoned: removed).
    static func publish(_ staged: Staged, abandoned: () -> Bool) throws(HLSError) -> RecordingSnapshot {
        let verification = abandoned() ? nil : PackageStore(folder: URL(fileURLWithPath: staged.hidden)).verify()
        guard let verification, verification.isVerified, !abandoned() else {
            FolderTree.remove(at: staged.hidden)
            if verification?.isVerified != false { throw HLSError(.cancelled, "The snapshot \(staged.folder.path) was withdrawn; nothing of it is left.") }
            throw HLSError(.destinationUnwritable, "The snapshot \(staged.folder.path) did not verify (\(verification?.findings.first?.description ?? "?")); nothing of it is left.")
        }
        do throws(SupportError) {
            let staging = try StagingDirectory(destination: staged.folder, policy: .refuse, resumableAt: staged.hidden)
            try staging.commit()
        } catch {
            FolderTree.remove(at: staged.hidden)
            throw HLSError(destination: error)
        }
        return RecordingSnapshot(folder: staged.folder, segments: staged.segments, duration: staged.duration)
    }
}
