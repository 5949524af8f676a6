import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file replaced atomically: written to a partial file beside its target (`.NAME.partial-PID`, same
/// folder, so the rename cannot cross file systems), then fsynced and renamed over the target, then the
/// folder fsynced, by `commit()`. Until then an existing target is untouched; `discard()`, or dropping
/// the value, removes the partial file. The replacement keeps an existing file's read and write
/// permissions, never its execute or set-id bits (output is data: a script it replaces stops being one).
/// Through a symbolic link the file it points to is replaced, unless made `refusingLinks` (golden logs,
/// a scenario's own sinks): then a link is refused, and the rename replaces the name itself, never what a
/// link swapped in meanwhile points to. The one atomic write for event files, golden logs, GPX tracks
/// and JUnit reports.
public final class AtomicFile {
    /// The target (through a symbolic link, the file it points to).
    public let path: String
    /// The partial file being written.
    public let partialPath: String
    /// The partial file's descriptor, to write to until `commit()` or `discard()`.
    public let descriptor: FileDescriptor
    var isClosed = false  // internal: AtomicFile+Append.swift closes it too

    /// Creates the partial file for replacing `path`; fails now when it cannot be created. A new file gets
    /// `permissions` (less the umask); a replaced one keeps its read and write bits, without execute or
    /// set-id. Removes the partial files of the same target left by processes that no longer exist, unless
    /// `removingStalePartials` is false (the run journal sweeps its folder for them on its own thread).
    /// `refusingLinks`: a symbolic link at `path` is refused (`FileError.linkRefused`), never followed.
    public init(
        replacing path: String, permissions: FilePermissions = [.ownerReadWrite, .groupReadWrite, .otherReadWrite],
        removingStalePartials: Bool = true, refusingLinks: Bool = false
    ) throws(FileError) {
        var real = path
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK {
            if refusingLinks { throw FileError.linkRefused(path, action: "replace") }
            if let resolved = realpath(path, nil) {
                real = String(cString: resolved)
                free(resolved)
            }
        }
        let existing = try? Stat(FilePath(real))
        let partial = Self.partialPath(for: real)
        if removingStalePartials { Self.removeStalePartials(besides: partial) }
        func create() throws -> FileDescriptor {
            try FileDescriptor.open(
                FilePath(partial), .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .truncate, .closeOnExec],
                permissions: permissions)
        }
        var fd: FileDescriptor
        do {
            fd = try create()
        } catch Errno.fileExists {  // left by an earlier process with the same id
            unlink(partial)
            do { fd = try create() } catch { throw FileError(thrown: error, path: path, action: "create") }
        } catch {
            throw FileError(thrown: error, path: path, action: "create")
        }
        // Keeps the old read and write bits; never execute or set-id (a hook or script replaced by output).
        if let existing { _ = fchmod(fd.rawValue, existing.rawValue.st_mode & 0o666) }
        self.path = real
        self.partialPath = partial
        self.descriptor = fd
    }

    deinit { discard() }

    /// Writes all of `bytes` to the partial file, retrying on EINTR.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        do { _ = try descriptor.writeAll(bytes) } catch { throw FileError(thrown: error, path: path, action: "write") }
    }

    /// Fsyncs the partial file and renames it over the target, then fsyncs the folder. After a failure
    /// the partial file is removed (when it can be) and the target left as it was. Does nothing after
    /// `discard()` or a second time.
    public func commit() throws(FileError) {
        guard !isClosed else { return }
        try syncAndClose()
        if rename(partialPath, path) != 0 {
            var error = FileError(Errno(rawValue: errno), path: path, action: "replace")
            if unlink(partialPath) != 0 && errno != ENOENT {  // the folder turned read-only meanwhile
                error.cause += "; its whole output is in \"\(partialPath)\", which could not be renamed or removed"
            }
            throw error
        }
        Self.syncFolder(of: path)
    }

    /// Keeps the partial file beside its target instead of renaming it over it, for output that is not
    /// whole (a run stopped early): fsyncs it and gives it the target's name marked with `mark`
    /// (`FileNames.marked`: `e.interrupted.jsonl`, else `e.interrupted-2.jsonl`, …; never over an
    /// existing file), then fsyncs the folder. The target is left as it was. Returns the name given.
    /// After a failure the partial file is removed (when it can be). Nil after `discard()` or `commit()`.
    public func keepBeside(marked mark: String) throws(FileError) -> String? {
        guard !isClosed else { return nil }
        try syncAndClose()
        var number = 1
        while true {
            let kept = FileNames.marked(path, mark, number: number)
            // link(2) never replaces a file; where hard links are not supported, a name nothing holds.
            let linked = link(partialPath, kept) == 0
            if linked || ((errno == EPERM || errno == ENOTSUP) && Self.isFree(kept) && rename(partialPath, kept) == 0) {
                if linked { unlink(partialPath) }
                Self.syncFolder(of: path)
                return kept
            }
            guard errno == EEXIST else {
                let error = FileError(Errno(rawValue: errno), path: kept, action: "create")
                unlink(partialPath)
                throw error
            }
            number += 1
        }
    }

    /// Fsyncs the partial file and closes it; after a failure removes it.
    private func syncAndClose() throws(FileError) {
        if fsync(descriptor.rawValue) != 0 && errno != EINVAL {
            let code = Errno(rawValue: errno)
            discard()
            throw FileError(code, path: path, action: "write")
        }
        try? descriptor.close()
        isClosed = true
    }

    /// Whether nothing is at `path`, not even a dangling symbolic link; sets errno to EEXIST when not.
    private static func isFree(_ path: String) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0 {
            errno = EEXIST
            return false
        }
        return true
    }

    /// Makes a rename in the folder of `path` durable (not all file systems support it).
    private static func syncFolder(of path: String) {
        if let folder = try? FileDescriptor.open(FilePath(FileNames.directory(of: path)), .readOnly, options: [.closeOnExec])
        {
            _ = fsync(folder.rawValue)
            try? folder.close()
        }
    }

    /// The partial file's size in bytes (what its writes left in it, also after one failed part way),
    /// or nil after `commit()` or `discard()`, or when it cannot be known.
    public var writtenSize: Int? {
        guard !isClosed, let status = try? Stat(descriptor) else { return nil }
        return Int(status.size)
    }

    /// Cuts the partial file to its first `length` bytes, then commits it as `commit()` does: what a
    /// write that failed part way (a file-size limit, a full disk) left whole is kept. Does nothing after
    /// `discard()` or `commit()`.
    public func commit(truncatingTo length: Int) throws(FileError) {
        guard !isClosed else { return }
        if ftruncate(descriptor.rawValue, off_t(length)) != 0 {
            let code = Errno(rawValue: errno)
            discard()
            throw FileError(code, path: path, action: "write")
        }
        try commit()
    }

    /// Abandons the replacement: the partial file is removed, the target left as it was. Safe to call
    /// more than once.
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        try? descriptor.close()
        unlink(partialPath)
    }

    /// Replaces the file at `path` with `bytes`, atomically and durably; `refusingLinks` as `init`'s.
    public static func write(
        _ bytes: some Collection<UInt8>, to path: String, refusingLinks: Bool = false
    ) throws(FileError) {
        let file = try AtomicFile(replacing: path, refusingLinks: refusingLinks)
        var failure: FileError?
        Array(bytes).withUnsafeBytes { raw in
            do throws(FileError) { try file.write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        try file.commit()
    }

    /// The partial file used while writing `path`: `.NAME.partial-PID` in the same folder.
    public static func partialPath(for path: String) -> String {
        let directory = FileNames.directory(of: path)
        let name = FileNames.lastComponent(of: path)
        let prefix = path.contains("/") ? (directory == "/" ? "/" : directory + "/") : ""
        return prefix + "." + name + ".partial-\(getpid())"
    }

    /// Removes the partial files of the same target left by processes that no longer exist (a process
    /// killed with SIGKILL cannot clean up after itself). A live process's partial file is never touched.
    public static func removeStalePartials(besides partial: String) {
        guard let end = endOfPartialMarker(in: partial) else { return }
        let stem = String(partial[..<end])  // "DIR/.NAME.partial-"
        removeStalePartials(in: FileNames.directory(of: partial), namedLike: FileNames.lastComponent(of: stem))
    }

    /// Removes the partial files in `folder` whose names start with `prefix` and end in `.partial-PID`
    /// of a process that no longer exists (`prefix` `.perimeter-run-` matches the partial files of every
    /// run journal). A live process's partial file is never touched. O(entries in `folder`); only the
    /// names that start with `prefix` are made into strings.
    public static func removeStalePartials(in folder: String, namedLike prefix: String) {
        for (name, _) in stalePartials(in: folder, namedLike: prefix) {
            unlink(folder == "." ? name : folder + "/" + name)
        }
    }

    /// Keeps the partial files of the same target left by processes that no longer exist, instead of
    /// removing them: each is renamed to `keptPath(for: path, pid:)` beside the target (a spool's partial
    /// file holds events that were never delivered; `perimeter deliver` sends them). Returns the new names.
    @discardableResult
    public static func rescueStalePartials(of path: String) -> [String] {
        let partial = partialPath(for: path)
        guard let end = endOfPartialMarker(in: partial) else { return [] }
        let folder = FileNames.directory(of: partial)
        return stalePartials(in: folder, namedLike: FileNames.lastComponent(of: String(partial[..<end]))).compactMap {
            name, pid in
            let kept = keptPath(for: path, pid: pid)
            return rename(folder == "." ? name : folder + "/" + name, kept) == 0 ? kept : nil
        }
    }

    /// The files in `folder` whose names start with `prefix` and end in `.partial-PID` of a process that no
    /// longer exists, with that process's id.
    private static func stalePartials(in folder: String, namedLike prefix: String) -> [(name: String, pid: pid_t)] {
        guard let listing = opendir(folder) else { return [] }
        var names: [String] = []
        let stem = Array(prefix.utf8)
        while let entry = readdir(listing) {
            // Read the name in place, up to its NUL: readdir's record may end before d_name's 256 bytes,
            // so copying the whole field (entry.pointee.d_name) reads past it (AddressSanitizer found it).
            // The prefix is compared first: a name shorter than it ends in a NUL that differs from it.
            // C interop: d_name is a stored field of dirent, so it has an offset.
            // swift-format-ignore: NeverForceUnwrap
            let field = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                .assumingMemoryBound(to: UInt8.self)
            guard stem.indices.allSatisfy({ field[$0] == stem[$0] }) else { continue }
            names.append(String(cString: field))
        }
        closedir(listing)
        return names.compactMap { name in
            guard let end = endOfPartialMarker(in: name),
                let pid = pid_t(name[end...]), pid > 0, pid != getpid()
            else { return nil }
            return kill(pid, 0) != 0 && errno == ESRCH ? (name, pid) : nil
        }
    }

    /// Where the last `.partial-` in `name` ends (the process id follows), or nil.
    private static func endOfPartialMarker(in name: String) -> String.Index? {
        let marker = Array(".partial-".utf8)
        let bytes = Array(name.utf8)
        guard bytes.count >= marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<start + marker.count].elementsEqual(marker) {
            return name.utf8.index(name.utf8.startIndex, offsetBy: start + marker.count)
        }
        return nil
    }
}
