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
    /// Standard output (`-`) is called so.
    static func system(_ code: Int32, spec: String, path: String, doing action: String) -> SinkError {
        let directory = OutputFile.directory(of: path)
        let target = path == "-" ? "standard output" : "\"\(path)\""
        let cause: String
        switch code {
        case ENOENT:
            cause = "the directory \"\(directory)\" does not exist"
        case ENOTDIR:
            cause = "a part of the path \"\(directory)\" is not a directory"
        case EACCES, EPERM:
            cause = "permission denied (check that the directory \"\(directory)\" is writable)"
        case EROFS:
            cause = "the file system is read-only"
        case ENOSPC:
            cause = "the disk is full"
        case EDQUOT:
            cause = "the disk quota is exceeded"
        case EISDIR:
            cause = "it is a directory; give a file name"
        case ENAMETOOLONG:
            cause = "the file name is too long"
        case EFBIG:
            cause = "the file has reached the file-size limit (ulimit -f, or the file system's largest file)"
        case EPIPE:
            cause = "the reader closed the pipe"
        case EIO:
            cause = "input/output error (a failing disk or network file system)"
        default:
            cause = String(cString: strerror(code))
        }
        return SinkError(spec: spec, path: path, reason: "cannot \(action) \(target): \(cause)", errorNumber: code)
    }
}
