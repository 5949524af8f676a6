import FileSystem

/// An event log read back whole: a golden log, JSON Lines as `jsonl:` writes them, read by `check`; JSON
/// Lines or CSV read by `summarize` (a spool file or a journal, which may be larger than memory, is
/// streamed by `SpoolFile`); a file with one bad line gives no events at all. O(size of the file).
public struct EventLogFile: Sendable {
    public let path: String
    /// The file's bytes, as read.
    public let contents: [UInt8]
    /// The events, in order.
    public let events: [WireEvent]

    /// Why an event log could not be read: `events.jsonl:3: "kind" is missing`, or a file error.
    public struct ReadError: PlacedError, Sendable {
        public var path: String
        public var line: Int?
        /// The 1-based column (byte) in the line, when known.
        public var column: Int?
        public var reason: String

        public init(path: String, line: Int? = nil, column: Int? = nil, reason: String) {
            (self.path, self.line, self.column, self.reason) = (path, line, column, reason)
        }

        /// `events.jsonl:3:14: REASON`; a line without a column is written `events.jsonl:3: REASON`.
        public var description: String {
            path + (line.map { ":\($0)" } ?? "") + (column.map { ":\($0)" } ?? "") + ": " + reason
        }
        public var place: SourcePlace { SourcePlace(file: path, line: line ?? 0, column: column ?? 0) }
        public var message: String { reason }
    }

    /// Reads and decodes the whole file (at most `WholeFile.defaultLimit` bytes) as `format`: JSON Lines
    /// (`JSONLines.decode(log:)`) or CSV (`CSVRecords.decode(log:poolingRuns:)`, errors with their
    /// columns); an SQLite database is read by `EventSinksSQLite.SQLiteEventLog`. With `poolingRuns`, a
    /// Monte Carlo batch's `run` member or column (`jsonl:` and `csv:` write it) is read and dropped: the
    /// batch's events read as one log.
    public init(path: String, format: EventLogFormat = .jsonLines, poolingRuns: Bool = false) throws(ReadError) {
        self.path = path
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path)
        } catch .unreadable {
            throw ReadError(path: path, reason: Self.unreadable(path))
        } catch {
            throw ReadError(path: path, reason: error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ReadError(path: path, reason: "not UTF-8 text (an event log is JSON Lines or CSV)")
        }
        do throws(WireFormatError) {
            switch format {
            case .jsonLines: events = poolingRuns ? try JSONLines.decode(logOfRuns: text) : try JSONLines.decode(log: text)
            case .csv: events = try CSVRecords.decode(log: bytes, poolingRuns: poolingRuns)
            case .sqlite: throw WireFormatError(reason: "an SQLite database, which is read by the SQLite sink's reader")
            }
        } catch {
            throw ReadError(path: path, line: error.line, column: format == .csv ? error.column : nil, reason: error.reason)
        }
        contents = bytes
    }

    /// Whether anything is at `path` (a golden log that is missing is recorded, not an error).
    public static func exists(_ path: String) -> Bool { FileCheck.unreachable(path) == nil }

    /// Why the file at `path` cannot be read as an event log, in a sentence without the path.
    public static func unreadable(_ path: String) -> String {
        if FileCheck.unreachable(path) != nil { return "no such file" }
        if FileCheck.isDirectory(path) { return "it is a directory, not an event log" }
        if !FileCheck.isRegularFile(path) { return "it is not a regular file (a FIFO or a device); an event log is a file" }
        return "it cannot be read (permission denied)"
    }
}
