import SystemPackage

/// What is at a path, asked with stat(2) and never by opening it (opening a FIFO waits for a writer,
/// possibly for ever), said as a person needs it: "missing", "not allowed" and "a folder" call for
/// different fixes. The one place where readers (scenarios, tracks, golden logs, spool files) ask.
public enum FileCheck {
    /// What stat(2) says of `path` (following links), or its error.
    public static func status(of path: String) -> Result<Stat, Errno> {
        Result { () throws(Errno) in try Stat(FilePath(path)) }
    }

    /// Why nothing can be found at `path` (missing, a folder of its path not allowed, a part of it not a
    /// folder), or nil when something is there.
    public static func unreachable(_ path: String) -> String? {
        guard case let .failure(errno) = status(of: path) else { return nil }
        switch errno {
        case .permissionDenied: return "\(path) cannot be reached (permission denied on a folder of its path)"
        case .notDirectory: return "\(path) cannot be reached: a part of its path is not a folder"
        default: return "no such file: \(path)" + (backslashHint(path) ?? "")
        }
    }

    /// For a missing path written with backslashes (`sub\\walk.gpx`, from Windows): `; paths are written
    /// with / (a backslash is part of a file name here): sub/walk.gpx exists` (or `: write sub/walk.gpx`).
    public static func backslashHint(_ path: String) -> String? {
        guard path.contains("\\") else { return nil }
        let slashed = String(path.map { $0 == "\\" ? "/" : $0 })
        let exists = (try? status(of: slashed).get()) != nil
        return "; paths are written with / on every system (a backslash is part of a file name here)"
            + (exists ? ": \(slashed) exists" : ": write \(slashed)")
    }

    /// Why what is at `path` is not a regular file (a folder, a FIFO, a device, a socket), or nil when it
    /// is one or nothing is there: `PATH is a directory, not a file`.
    public static func notRegularFile(_ path: String) -> String? {
        guard case let .success(info) = status(of: path) else { return nil }
        return notRegular(info.type).map { "\(path) \($0)" }
    }

    /// Why a file of `type` is not a regular file, as the rest of a sentence whose subject is the file
    /// (`is a directory, not a GPX file`), or nil for a regular file. `noun` names what was expected.
    public static func notRegular(_ type: FileType, expected noun: String = "file") -> String? {
        switch type {
        case .regular: return nil
        case .directory: return "is a directory, not a \(noun)"
        case .fifo:
            return
                "is a named pipe (FIFO), not a file: it is read from a regular file (a pipe can block until someone writes to it, and be read only once); save it to a file first"
        case .socket: return "is a socket, not a \(noun)"
        default: return "is a device, not a \(noun)"
        }
    }

    /// `notRegular(_:expected:)` for the `st_mode` of a stat(2) or fstat(2) made by the caller.
    public static func notRegular(mode: UInt32, expected noun: String = "file") -> String? {
        notRegular(FileType(rawValue: CInterop.Mode(mode) & CInterop.Mode(0o170000)), expected: noun)
    }

    /// Whether `path` names a regular file (following links).
    public static func isRegularFile(_ path: String) -> Bool {
        guard case let .success(info) = status(of: path) else { return false }
        return info.type == .regular
    }

    /// Whether `path` names a folder (following links).
    public static func isDirectory(_ path: String) -> Bool {
        guard case let .success(info) = status(of: path) else { return false }
        return info.type == .directory
    }

    /// Why `path` cannot be read as a file (unreachable, not a regular file, not readable), or nil when
    /// it can: asked before a file is opened for streaming (a GPX track).
    public static func problemReading(_ path: String) -> String? {
        if let unreachable = unreachable(path) { return unreachable }
        if let kind = notRegularFile(path) { return kind }
        do {
            try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec]).close()
        } catch {
            return "\(path) cannot be read (permission denied)"
        }
        return nil
    }
}
