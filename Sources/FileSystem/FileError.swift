import SystemPackage
import TextEscaping

/// Why a file could not be read, written or replaced: the path, what was tried, and one sentence per
/// failure that a person can act on (`cannot create "out/e.jsonl": the directory "out" does not exist`).
/// The one place where an errno becomes words.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, as given (`-` for standard output).
    public var path: String
    /// What was tried: `read`, `create`, `write`, `replace`, `open`.
    public var action: String
    /// The system's error, when the failure came from one.
    public var errno: Errno?
    /// What went wrong, without the path: `the disk is full`.
    public var cause: String

    public init(path: String, action: String, errno: Errno? = nil, cause: String) {
        self.path = path
        self.action = action
        self.errno = errno
        self.cause = cause
    }

    /// A failed system call on `path`, with the sentence for its error number.
    public init(_ errno: Errno, path: String, action: String) {
        self.init(path: path, action: action, errno: errno, cause: Self.cause(of: errno, path: path))
    }

    /// What a swift-system call threw (an `Errno`; its untyped `throws` says no more) on `path`.
    public init(thrown error: any Error, path: String, action: String) {
        if let errno = error as? Errno {
            self.init(errno, path: path, action: action)
        } else {
            self.init(path: path, action: action, cause: "\(error)")
        }
    }

    /// A symbolic link at `path`, where a file is never written through one (a golden log, its inputs
    /// record, a scenario's own sink): `cannot replace "evil.events.jsonl": it is a symbolic link (to
    /// "../.git/hooks/pre-commit"); …`.
    public static func linkRefused(_ path: String, action: String) -> FileError {
        let target = FileCheck.linkDestination(of: path).map { " (to \"\(TerminalText.visible($0))\")" } ?? ""
        return FileError(
            path: path, action: action,
            cause: "it is a symbolic link\(target), and Perimeter never writes this file through a link; "
                + "remove the link, or write another name")
    }

    /// `cannot write "out/e.jsonl": the disk is full`; standard output (`-`) is called so.
    public var description: String {
        let target = path == "-" ? "standard output" : "\"\(path)\""
        return "cannot \(action) \(target): \(cause)"
    }

    /// The sentence for an error number met on `path`, naming the folder where the fix lies.
    public static func cause(of errno: Errno, path: String) -> String {
        let folder = FileNames.directory(of: path)
        switch errno {
        case .noSuchFileOrDirectory: return "the directory \"\(folder)\" does not exist"
        case .notDirectory: return "a part of the path \"\(folder)\" is not a directory"
        case .permissionDenied, .notPermitted:
            return "permission denied (check that the directory \"\(folder)\" is writable)"
        case .readOnlyFileSystem: return "the file system is read-only"
        case .noSpace: return "the disk is full"
        case .diskQuotaExceeded: return "the disk quota is exceeded"
        case .isDirectory: return "it is a directory; give a file name"
        case .fileNameTooLong: return "the file name is too long"
        case .fileTooLarge: return "the file has reached the file-size limit (ulimit -f, or the file system's largest file)"
        case .brokenPipe: return "the reader closed the pipe"
        case .ioError: return "input/output error (a failing disk or network file system)"
        default: return errno.description
        }
    }
}
