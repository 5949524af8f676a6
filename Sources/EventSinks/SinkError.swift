import FileSystem

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
    /// Whether the path given can never be this sink's (a FIFO that no process reads): bad input, exit
    /// 2, rather than a sink that failed (exit 3).
    public var isBadInput = false

    public init(spec: String, path: String? = nil, reason: String, errorNumber: Int32? = nil, isBadInput: Bool = false) {
        self.spec = spec
        self.path = path
        self.reason = reason
        self.errorNumber = errorNumber
        self.isBadInput = isBadInput
    }

    /// A file that the sink could not create, write or replace (`FileError`'s sentence).
    public init(_ error: FileError, spec: String, isBadInput: Bool = false) {
        self.init(
            spec: spec, path: error.path, reason: error.description, errorNumber: error.errno?.rawValue,
            isBadInput: isBadInput)
    }

    public var description: String { "sink \(spec): \(reason)" }
}
