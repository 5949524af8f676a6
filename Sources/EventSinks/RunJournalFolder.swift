import FileSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The private folder a run journal is written in (G9 of issue 37): `perimeter-journal-PID-XXXXXX` in the
/// temporary folder, made by mkdtemp(3) with mode 0700, so that no other user can plant a symbolic link at
/// the journal's name or read it. (A journal at a predictable name in a shared `/tmp` followed a link
/// planted there, and a failed run renamed it over another user's file.)
///
/// The folder is removed with the journal when the journal is discarded or holds no events; it stays
/// with a kept journal. The folders of processes that died (a SIGKILL) are swept by `removeStale(in:)`:
/// their partial files removed, then each folder when nothing else is in it.
struct RunJournalFolder {
    /// The start of every private folder's name.
    static let stem = "perimeter-journal"

    /// The folder's path, or nil when it could not be made.
    let path: String?
    /// Why it could not be made.
    let failure: SinkError?

    /// Makes `PARENT/perimeter-journal-PID-XXXXXX` (0700).
    init(in parent: String) {
        let template = (parent.hasSuffix("/") ? parent : parent + "/") + "\(Self.stem)-\(getpid())-XXXXXX"
        var bytes = Array(template.utf8CString)
        // C interop: a non-empty array's buffer has an address.
        // swift-format-ignore: NeverForceUnwrap
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } != nil
        if made {
            path = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            failure = nil
        } else {
            path = nil
            failure = SinkError(FileError(Errno(rawValue: errno), path: template, action: "create"), spec: "journal")
        }
    }

    /// Removes the folder if it is empty (its journal discarded, or never written).
    func removeIfEmpty() {
        if let path { rmdir(path) }
    }

    /// Sweeps `parent` for the private folders of processes that no longer exist: removes their journals'
    /// partial files, then the folders left empty (a folder holding a kept journal stays). A live
    /// process's folder is never touched. O(entries in `parent`).
    static func removeStale(in parent: String) {
        guard let listing = opendir(parent) else { return }
        var folders: [String] = []
        let prefix = Array((stem + "-").utf8)
        while let entry = readdir(listing) {
            // Read the name in place, up to its NUL (as `AtomicFile`'s sweep does: copying the whole d_name
            // field reads past a short record); only names that start with the stem are made into strings.
            // C interop: d_name is a stored field of dirent, so it has an offset.
            // swift-format-ignore: NeverForceUnwrap
            let field = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                .assumingMemoryBound(to: UInt8.self)
            guard prefix.indices.allSatisfy({ field[$0] == prefix[$0] }) else { continue }
            folders.append(String(cString: field))
        }
        closedir(listing)
        for name in folders {
            let digits = name.dropFirst(prefix.count).prefix { $0 != "-" }  // perimeter-journal-PID-XXXXXX
            guard let pid = pid_t(digits), pid > 0, pid != getpid(), kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let folder = parent + "/" + name
            var info = stat()
            guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid() else { continue }
            AtomicFile.removeStalePartials(in: folder, namedLike: "." + RunJournal.stem + "-")
            rmdir(folder)
        }
    }
}
