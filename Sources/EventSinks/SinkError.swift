#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a sink could not take or deliver events: which sink (its spec), which file, and a sentence a
/// person can act on. `description` is the whole message: `sink jsonl:out/events.jsonl: the directory
/// "out" does not exist`.
public struct SinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sink as it was specified (`jsonl:out/events.jsonl`, `console`, …).
    public var spec: String
    /// The file involved, when there is one (resolved against the scenario's directory).
    public var path: String?
    /// What went wrong and what to do, as a sentence without the sink's name.
    public var reason: String
    /// The system's error number, when the failure came from one.
    public var errorNumber: Int32?

    public init(spec: String, path: String? = nil, reason: String, errorNumber: Int32? = nil) {
        self.spec = spec
        self.path = path
        self.reason = reason
        self.errorNumber = errorNumber
    }

    public var description: String { "sink \(spec): \(reason)" }
}

extension SinkError {
    /// The sentence for a failed system call on `path` (`doing` says what was tried: "create", "write", …).
    static func system(_ code: Int32, spec: String, path: String, doing action: String) -> SinkError {
        let directory = OutputFile.directory(of: path)
        let reason: String
        switch code {
        case ENOENT:
            reason = "cannot \(action) \"\(path)\": the directory \"\(directory)\" does not exist"
        case ENOTDIR:
            reason = "cannot \(action) \"\(path)\": a part of the path \"\(directory)\" is not a directory"
        case EACCES, EPERM:
            reason = "cannot \(action) \"\(path)\": permission denied (check that the directory \"\(directory)\" is writable)"
        case EROFS:
            reason = "cannot \(action) \"\(path)\": the file system is read-only"
        case ENOSPC:
            reason = "cannot \(action) \"\(path)\": the disk is full"
        case EDQUOT:
            reason = "cannot \(action) \"\(path)\": the disk quota is exceeded"
        case EISDIR:
            reason = "cannot \(action) \"\(path)\": it is a directory; give a file name"
        case ENAMETOOLONG:
            reason = "cannot \(action) \"\(path)\": the file name is too long"
        case EPIPE:
            reason = "cannot \(action) \"\(path)\": the reader closed the pipe"
        case EIO:
            reason = "cannot \(action) \"\(path)\": input/output error (a failing disk or network file system)"
        default:
            reason = "cannot \(action) \"\(path)\": \(String(cString: strerror(code)))"
        }
        return SinkError(spec: spec, path: path, reason: reason, errorNumber: code)
    }
}
