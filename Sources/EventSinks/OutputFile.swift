import FileSystem
import SystemPackage
import Time
import WireFormat

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a text sink's bytes go: standard output, any open file descriptor, or a file replaced
/// atomically (`AtomicFile`: written beside the target and renamed over it by `commit()`, so that an
/// existing target is untouched until the run completes). An existing device or FIFO (`/dev/null`) is
/// written in place, opened without waiting (a FIFO no process reads is refused at once). Writes are buffered (64 KiB); a failed write is reported as a `SinkError` naming
/// the sink's spec. A sink formats into the buffer's own memory (`write(atMost:_:)`): no copy of its
/// own, no array to grow.
public final class OutputFile {
    /// The buffer size: a write(2) per 64 KiB.
    public static let bufferSize = 64 * 1024

    private enum Target {
        /// A file replaced atomically.
        case file(AtomicFile)
        /// A descriptor owned by someone else (standard output, a pipe): flushed, never closed.
        case descriptor(FileDescriptor)
        /// An existing device or FIFO opened by path: written in place, closed at the end.
        case device(FileDescriptor)
    }

    /// The sink spec, for errors.
    public let spec: String
    /// The target path, or `-` / a name for a descriptor.
    public let path: String
    private let target: Target
    /// Whether `commit()` appends a file's bytes to the target (`AtomicFile.commitAppending`) rather
    /// than replace it.
    private let appends: Bool
    /// The bytes not yet written: the first `pending` of `memory`'s.
    private let memory = Memory(capacity: 2 * OutputFile.bufferSize)
    private var pending = 0
    private var isClosed = false
    /// The write error that closed the output, reported again by `write` and `commit`.
    private var failure: SinkError?
    /// Whether a failed write leaves a file's partial file for `commitAfterFailure(keepingFirst:)`.
    private let keepsPartialFileOnFailure: Bool
    /// Whether `commit()` keeps a file's output beside its target (`markStoppedEarly()`).
    private var stoppedEarly = false
    /// Where `commit()` kept a file's output of a run stopped early, and whether the target was there then.
    public private(set) var keptBeside: (path: String, targetExisted: Bool)?

    /// Opens an atomic replacement of the file at `path`, or standard output when `path` is `-`.
    /// Fails now (not at the first write) when the file cannot be created. A new file gets
    /// `permissions` (0644 for event files, less the umask); a replaced one keeps its read and write
    /// bits, never execute (`AtomicFile`). `removingStalePartials`: as
    /// `AtomicFile`'s. `appending`: `commit()` appends to an existing file, under a lock, instead of
    /// replacing it (an HTTP sink's spool file, which several runs may share), and the partial files of
    /// killed runs are kept as `PATH.unappended-PID` rather than removed. `keepingPartialFileOnFailure`:
    /// a failed write leaves the partial file (until `discard()`), so that `commitAfterFailure(keepingFirst:)`
    /// can keep what it holds whole. `refusingLinks` (a scenario's own sink): a symbolic link, FIFO or
    /// device at `path` is refused (bad input), never followed nor opened.
    public init(
        path: String, spec: String,
        permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead],
        removingStalePartials: Bool = true, appending: Bool = false,
        keepingPartialFileOnFailure: Bool = false, refusingLinks: Bool = false
    ) throws(SinkError) {
        self.spec = spec
        self.path = path
        appends = appending
        keepsPartialFileOnFailure = keepingPartialFileOnFailure
        if path == "-" {
            target = .descriptor(.standardOutput)
            return
        }
        if refusingLinks, FileCheck.linkDestination(of: path) != nil {
            let action = appending ? "append to" : "replace"
            throw SinkError(FileError.linkRefused(path, action: action), spec: spec, isBadInput: true)
        }
        if case let .success(info) = FileCheck.status(of: path), info.type != .regular {
            if refusingLinks, let kind = FileCheck.notRegular(info.type) {
                throw SinkError(spec: spec, path: path, reason: "cannot write \"\(path)\": it \(kind)", isBadInput: true)
            }
            guard info.type != .directory else {
                throw SinkError(FileError(.isDirectory, path: path, action: "write"), spec: spec)
            }
            // A device or a pipe (`/dev/null`, a FIFO): written in place, never renamed over.
            target = .device(try Self.openInPlace(path, spec: spec))
            return
        }
        do {
            // A file appended to (a spool) keeps what a killed run left in its partial file: never swept.
            if appending { AtomicFile.rescueStalePartials(of: path) }
            target = .file(
                try AtomicFile(
                    replacing: path, permissions: permissions,
                    removingStalePartials: removingStalePartials && !appending, refusingLinks: refusingLinks))
        } catch {
            throw SinkError(error, spec: spec)
        }
    }

    /// Opens the device or FIFO at `path` for writing without waiting: opened non-blocking (a FIFO that
    /// no process reads fails at once with ENXIO, instead of blocking open(2) until SIGKILL), then made
    /// blocking again for the writes. A FIFO without a reader is bad input (`SinkError.isBadInput`).
    private static func openInPlace(_ path: String, spec: String) throws(SinkError) -> FileDescriptor {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.closeOnExec, .nonBlocking])
        } catch Errno.noSuchAddressOrDevice {
            throw SinkError(
                spec: spec, path: path,
                reason: "cannot open \"\(path)\": it is a named pipe (FIFO) that no process is reading; start "
                    + "its reader first, or give a regular file", isBadInput: true)
        } catch {
            throw SinkError(FileError(thrown: error, path: path, action: "open"), spec: spec)
        }
        let flags = fcntl(fd.rawValue, F_GETFL)
        if flags >= 0 { _ = fcntl(fd.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// Writes to an open descriptor (standard output, a pipe) that the caller keeps owning:
    /// `commit()` flushes it and leaves it open. `name` is what errors call it.
    public init(fileDescriptor: Int32, name: String = "-", spec: String) {
        self.spec = spec
        self.path = name
        appends = false
        keepsPartialFileOnFailure = false
        target = .descriptor(FileDescriptor(rawValue: fileDescriptor))
    }

    deinit { discard() }

    private var descriptor: FileDescriptor {
        switch target {
        case let .file(file): return file.descriptor
        case let .descriptor(fd), let .device(fd): return fd
        }
    }

    /// Appends `text` (UTF-8); writes when the buffer is full.
    public func write(_ text: String) throws(SinkError) {
        try write(atMost: text.utf8.count) { $0.put(utf8: text) }
    }

    /// Lets `body` write at most `bound` bytes straight into the buffer's memory (a cursor that traps
    /// rather than pass `bound`); writes when the buffer is full. O(bytes written). Always inlined, with
    /// `body`: a body called out of line captured a copy of the event it writes.
    @inline(__always)
    public func write(atMost bound: Int, _ body: (inout ByteCursor) -> Void) throws(SinkError) {
        if let failure { throw failure }
        if pending + bound > memory.capacity { try makeRoom(for: bound) }
        guard bound > 0 else { return }
        var cursor = ByteCursor(UnsafeMutableBufferPointer(start: memory.bytes + pending, count: bound), dates: memory.dates)
        body(&cursor)
        pending += cursor.count
        if pending >= Self.bufferSize { try flush() }
    }

    /// Writes the buffer out, and grows it when `bound` bytes are more than it holds.
    private func makeRoom(for bound: Int) throws(SinkError) {
        try flush()
        if bound > memory.capacity { memory.grow(to: bound) }
    }

    /// Writes the buffer out.
    public func flush() throws(SinkError) {
        if let failure { throw failure }
        guard pending > 0 else { return }
        guard !isClosed else {
            throw SinkError(spec: spec, path: path, reason: "cannot write \"\(path)\": the output is already closed")
        }
        var code: Errno?
        do {
            _ = try descriptor.writeAll(UnsafeRawBufferPointer(start: memory.bytes, count: pending))
        } catch {
            code = (error as? Errno) ?? .ioError
        }
        pending = 0
        if let code {
            let error = SinkError(FileError(code, path: path, action: "write"), spec: spec)
            if !keepsPartialFileOnFailure { discard() }
            self.failure = error
            throw error
        }
    }

    /// Flushes; for a file, fsyncs and renames the partial file over the target (or appends it, when
    /// opened `appending`). After a failure the partial file is removed (kept beside the target, when
    /// appending) and the target left as it was. After `discard()` it does nothing; after a
    /// failed write it throws that failure again (the events were not delivered). `isCancelled` is asked
    /// while an appended file's lock is waited for (`AtomicFile.commitAppending`).
    public func commit(isCancelled: () -> Bool = { false }) throws(SinkError) {
        if let failure { throw failure }
        guard !isClosed else { return }
        do {
            try flush()
        } catch {
            discard()
            throw error
        }
        isClosed = true
        switch target {
        case let .file(file) where stoppedEarly:
            let existed = (try? FileCheck.status(of: file.path).get()) != nil
            do { try file.keepBeside(marked: Self.stoppedEarlyMark).map { keptBeside = ($0, existed) } } catch {
                throw SinkError(error, spec: spec)
            }
        case let .file(file):
            do { try appends ? file.commitAppending(isCancelled: isCancelled) : file.commit() } catch {
                throw SinkError(error, spec: spec)
            }
        case let .device(fd):
            try? fd.close()
        case .descriptor:
            break
        }
    }

    /// What marks the name of a file kept beside its target: `e.interrupted.jsonl`.
    public static let stoppedEarlyMark = "interrupted"

    /// The run stopped before its end (interrupted, a stream's bad row): `commit()` then keeps a file's
    /// output beside its target (`AtomicFile.keepBeside`: `e.interrupted.jsonl`, never over another file)
    /// and leaves the target as it was, so that a file at the target is always a whole run's. Standard
    /// output, a descriptor or a device is written as before.
    public func markStoppedEarly() { stoppedEarly = true }

    /// After `commit()` of a run stopped early: a sentence saying where the output is, or nil.
    public var keptBesideNote: String? {
        guard let (kept, existed) = keptBeside else { return nil }
        return "sink \(spec): the run stopped before its end, so \"\(path)\" was "
            + (existed ? "left as it was" : "not made") + "; what the sink wrote is in \"\(kept)\" (rename it to use it)"
    }

    /// The bytes a file's partial file holds (also after a write failed part way), or nil for a descriptor
    /// or device, or once the output is closed.
    public var bytesInPartialFile: Int? {
        guard !isClosed, case let .file(file) = target else { return nil }
        return file.writtenSize
    }

    /// After a failed write of an output made with `keepingPartialFileOnFailure`: keeps the first `length`
    /// bytes of its partial file (cut there, fsynced and renamed over the target). Does nothing for a
    /// descriptor or device, or once the output is closed.
    public func commitAfterFailure(keepingFirst length: Int) throws(SinkError) {
        guard !isClosed, case let .file(file) = target else { return }
        isClosed = true
        pending = 0
        do { try file.commit(truncatingTo: length) } catch { throw SinkError(error, spec: spec) }
    }

    /// Abandons the output: a file's partial file is removed and the target left as it was; a
    /// descriptor is left open with what was already written. Safe to call more than once.
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        pending = 0
        switch target {
        case let .file(file): file.discard()
        case let .device(fd): try? fd.close()
        case .descriptor: break
        }
    }
}

extension OutputFile {
    /// The buffer's memory (twice `bufferSize` at first, so that a record of up to 64 KiB always fits
    /// after what is pending; more for a larger one) and the date of the last time written, for the next
    /// record's times (most share its day). Freed with its output, even one whose `init` failed.
    private final class Memory {
        private(set) var bytes: UnsafeMutablePointer<UInt8>
        private(set) var capacity: Int
        let dates = UnsafeMutablePointer<ISO8601DateMemo>.allocate(capacity: 1)

        init(capacity: Int) {
            self.capacity = capacity
            bytes = .allocate(capacity: capacity)
            dates.initialize(to: ISO8601DateMemo())
        }

        /// Room for `capacity` bytes; what it held is dropped (the output has just been flushed).
        func grow(to capacity: Int) {
            bytes.deallocate()
            self.capacity = capacity
            bytes = .allocate(capacity: capacity)
        }

        deinit {
            bytes.deallocate()
            dates.deinitialize(count: 1)
            dates.deallocate()
        }
    }
}
