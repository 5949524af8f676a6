#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a text sink's bytes go: standard output, any open file descriptor, or a file replaced
/// atomically.
///
/// A regular file is written to a partial file beside it (`.NAME.partial-PID`, same directory, so the rename
/// cannot cross file systems); `commit()` flushes, fsyncs, and renames it over the target, then fsyncs
/// the directory. Until then an existing target is untouched. `discard()`, or dropping the value
/// without committing, removes the partial file. The replacement keeps an existing file's permissions;
/// through a symbolic link, the file it points to is replaced. An existing device or FIFO
/// (`/dev/null`) is written in place. Writes are buffered (64 KiB).
public final class OutputFile {
    /// The buffer size: a write(2) per 64 KiB.
    public static let bufferSize = 64 * 1024

    private enum Target {
        /// An atomic file: the partial file's descriptor and path.
        case file(path: String, partialPath: String)
        /// A descriptor owned by someone else (standard output, a pipe): flushed, never closed.
        case descriptor
        /// An existing device or FIFO opened by path: written in place, closed at the end.
        case device
    }

    /// The sink spec, for errors.
    public let spec: String
    /// The target path, or `-` / a name for a descriptor.
    public let path: String
    private let target: Target
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false
    /// The write error that closed the output, reported again by `write` and `commit`.
    private var failure: SinkError?

    /// Opens an atomic replacement of the file at `path`, or standard output when `path` is `-`.
    /// Fails now (not at the first write) when the file cannot be created. A new file gets `mode`
    /// (less the umask); a replaced one keeps its own.
    public init(path: String, spec: String, mode: mode_t = 0o666) throws(SinkError) {
        self.spec = spec
        self.path = path
        buffer.reserveCapacity(Self.bufferSize)
        if path == "-" {
            target = .descriptor
            fd = STDOUT_FILENO
            return
        }
        var info = stat()
        let exists = stat(path, &info) == 0
        let type = info.st_mode & S_IFMT
        if exists && type == S_IFDIR {
            throw SinkError.system(EISDIR, spec: spec, path: path, doing: "write")
        }
        if exists && type != S_IFREG {
            // A device or a pipe (`/dev/null`, a FIFO): written in place, never renamed over.
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SinkError.system(errno, spec: spec, path: path, doing: "open") }
            fd = descriptor
            target = .device
            return
        }
        // Through a symbolic link, the file it points to is replaced (beside it), not the link.
        var real = path
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            real = String(cString: resolved)
            free(resolved)
        }
        let partial = Self.partialPath(for: real)
        Self.removeStalePartials(besides: partial)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC
        var descriptor = open(partial, flags, mode)
        if descriptor < 0 && errno == EEXIST {  // left by an earlier process with the same id
            unlink(partial)
            descriptor = open(partial, flags, mode)
        }
        guard descriptor >= 0 else { throw SinkError.system(errno, spec: spec, path: path, doing: "create") }
        if exists { _ = fchmod(descriptor, info.st_mode & 0o7777) }  // the replacement keeps the old mode
        fd = descriptor
        target = .file(path: real, partialPath: partial)
    }

    /// Writes to an open descriptor (standard output, a pipe) that the caller keeps owning:
    /// `commit()` flushes it and leaves it open. `name` is what errors call it.
    public init(fileDescriptor: Int32, name: String = "-", spec: String) {
        self.spec = spec
        self.path = name
        target = .descriptor
        fd = fileDescriptor
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit { discard() }

    /// The partial file used while writing `path`: `.NAME.partial-PID` in the same directory.
    public static func partialPath(for path: String) -> String {
        let directory = directory(of: path)
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let prefix = path.hasPrefix("/") || path.contains("/") ? (directory == "/" ? "/" : directory + "/") : ""
        return prefix + "." + name + ".partial-\(getpid())"
    }

    /// Removes the partial files of the same target left by processes that no longer exist (a run killed
    /// with SIGKILL cannot clean up after itself). A live process's partial file is never touched.
    static func removeStalePartials(besides partial: String) {
        guard let dash = partial.range(of: ".partial-", options: .backwards) else { return }
        let stem = String(partial[..<dash.upperBound])  // "DIR/.NAME.partial-"
        let prefix = stem.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? stem
        removeStalePartials(in: directory(of: partial), namedLike: prefix)
    }

    /// Removes the partial files in `folder` whose names start with `prefix` and end in `.partial-PID`
    /// of a process that no longer exists (`prefix` `.perimeter-run-` matches the partial files of every
    /// run journal). A live process's partial file is never touched.
    static func removeStalePartials(in folder: String, namedLike prefix: String) {
        guard let listing = opendir(folder) else { return }
        var names: [String] = []
        while let entry = readdir(listing) {
            // Read the name in place, up to its NUL: readdir's record may end before d_name's 256 bytes,
            // so copying the whole field (entry.pointee.d_name) reads past it (AddressSanitizer found it).
            let field = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = String(cString: field.assumingMemoryBound(to: CChar.self))
            if name.hasPrefix(prefix) { names.append(name) }
        }
        closedir(listing)
        for name in names {
            guard let dash = name.range(of: ".partial-", options: .backwards),
                  let pid = pid_t(name[dash.upperBound...]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(folder == "." ? name : folder + "/" + name)
            }
        }
    }

    /// The directory part of `path` (`.` when it has none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Appends `text` (UTF-8); writes when the buffer is full.
    public func write(_ text: String) throws(SinkError) {
        if let failure { throw failure }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes the buffer out.
    public func flush() throws(SinkError) {
        if let failure { throw failure }
        guard !buffer.isEmpty else { return }
        guard !isClosed else {
            throw SinkError(spec: spec, path: path, reason: "cannot write \"\(path)\": the output is already closed")
        }
        var code: Int32 = 0
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if code != 0 {
            let error = SinkError.system(code, spec: spec, path: path, doing: "write")
            discard()
            self.failure = error
            throw error
        }
    }

    /// Flushes; for a file, fsyncs and renames the partial file over the target. After a failure the
    /// partial file is removed and the target left as it was. After `discard()` it does nothing; after a
    /// failed write it throws that failure again (the events were not delivered).
    public func commit() throws(SinkError) {
        if let failure { throw failure }
        guard !isClosed else { return }
        do {
            try flush()
        } catch {
            discard()
            throw error
        }
        guard case let .file(path, partial) = target else {
            if case .device = target { close(fd) }
            isClosed = true
            return
        }
        if fsync(fd) != 0 && errno != EINVAL {
            let code = errno
            discard()
            throw SinkError.system(code, spec: spec, path: path, doing: "write")
        }
        close(fd)
        isClosed = true
        if rename(partial, path) != 0 {
            var error = SinkError.system(errno, spec: spec, path: path, doing: "replace")
            if unlink(partial) != 0 && errno != ENOENT {  // the directory turned read-only during the run
                error.reason += "; its whole output is in \"\(partial)\", which could not be renamed or removed"
            }
            throw error
        }
        let directory = open(Self.directory(of: path), O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)  // makes the rename durable; not all file systems support it
            close(directory)
        }
    }

    /// Abandons the output: a file's partial file is removed and the target left as it was; a
    /// descriptor is left open with what was already written. Safe to call more than once.
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        buffer.removeAll()
        switch target {
        case let .file(_, partial):
            close(fd)
            unlink(partial)
        case .device:
            close(fd)
        case .descriptor:
            break
        }
    }
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
