import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// Appends the partial file's bytes to the target instead of replacing it (a spool file that several
    /// runs share): the target is created when missing and locked with an exclusive flock(2) while the
    /// bytes are copied and fsynced, so that runs appending at once land whole, one after the other, and
    /// what the target held is never lost. A target it creates has mode 0600; an existing one keeps its
    /// mode. The target and the partial file are opened with O_NOFOLLOW (issue 49 H9): a spool swapped
    /// for a symbolic link while the run wrote is refused (`FileError.linkRefused`), never written
    /// through, and the bytes are kept beside it. Then the partial file is removed. O(bytes appended),
    /// in 64 KiB copies.
    ///
    /// On failure (a full disk, a file-size limit) the target is cut back to its length before, and the
    /// partial file is kept, renamed to `keptPath(for:)` beside the target (a partial file would be
    /// swept by a later run); the error's cause says where. Does nothing after `discard()` or a second time.
    ///
    /// The lock is asked for without blocking, every `lockPoll` until it is free, and `isCancelled` (a
    /// run's interruption) is asked between tries: a spool another process holds locked never makes
    /// Ctrl-C wait for that process. Cancelled, the bytes are kept beside the target as on a failure.
    public func commitAppending(isCancelled: () -> Bool = { false }) throws(FileError) {
        guard !isClosed else { return }
        isClosed = true
        try? descriptor.close()
        // A spool holds where people were: created readable by its owner alone (0600), as journals are.
        let target = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            let code = Errno(rawValue: errno)
            let isLink = code == .tooManySymbolicLinkLevels && FileCheck.linkDestination(of: path) != nil
            throw keepingPartial(
                isLink ? .linkRefused(path, action: "append to") : FileError(code, path: path, action: "append to"))
        }
        defer { close(target) }  // also releases the lock
        while flock(target, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw keepingPartial(FileError(Errno(rawValue: errno), path: path, action: "lock"))
            }
            if isCancelled() {
                throw keepingPartial(
                    FileError(
                        path: path, action: "append to",
                        cause: "interrupted while another process held the file locked"))
            }
            usleep(Self.lockPoll)
        }
        var info = stat()
        let length = fstat(target, &info) == 0 ? info.st_size : -1
        if let code = copyPartial(to: target) {
            if length >= 0 { _ = ftruncate(target, length) }
            throw keepingPartial(FileError(code, path: path, action: "append to"))
        }
        unlink(partialPath)
    }

    /// How long `commitAppending` waits between two tries of a lock another process holds: 20 ms, in
    /// microseconds.
    static let lockPoll: useconds_t = 20_000

    /// Where `commitAppending` keeps the bytes it could not append to `path`: `PATH.unappended-PID`, with
    /// this process's id, or `pid`'s (a killed process's partial file, `rescueStalePartials(of:)`).
    public static func keptPath(for path: String, pid: pid_t = getpid()) -> String { path + keptMark + "\(pid)" }

    /// What `keptPath(for:pid:)` puts between the spool's name and the process id.
    public static let keptMark = ".unappended-"

    /// Copies the partial file's bytes to the end of `target` and fsyncs it; the error, or nil.
    private func copyPartial(to target: Int32) -> Errno? {
        let source = open(partialPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard source >= 0 else { return Errno(rawValue: errno) }
        defer { close(source) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = read(source, chunk.baseAddress, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return Errno(rawValue: errno) }
            if count == 0 { break }
            do {
                _ = try FileDescriptor(rawValue: target).writeAll(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
            } catch {
                return (error as? Errno) ?? .ioError
            }
        }
        return fsync(target) != 0 && errno != EINVAL ? Errno(rawValue: errno) : nil
    }

    /// `error`, after keeping the partial file beside the target under `keptPath(for:)`, with a cause
    /// that says where its bytes are.
    private func keepingPartial(_ error: FileError) -> FileError {
        var error = error
        let kept = Self.keptPath(for: path)
        if rename(partialPath, kept) == 0 {
            error.cause += "; what was to be appended is kept in \"\(kept)\""
        } else {
            error.cause += "; what was to be appended is kept in \"\(partialPath)\""
        }
        return error
    }
}
