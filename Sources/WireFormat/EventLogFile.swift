import FileSystem
import Geodesy

/// An event log read back whole: a golden log, a spool file of events an HTTP sink could not deliver,
/// or a run's journal, all JSON Lines as `jsonl:` writes them. Read by `check` and `deliver`; a file
/// with one bad line gives no events at all. O(size of the file).
public struct EventLogFile: Sendable {
    public let path: String
    /// The file's bytes, as read.
    public let contents: [UInt8]
    /// The events, in order.
    public let events: [WireEvent]
    /// Read as a spool file (`SpoolLines`): each event's batch key, nil for an event without one; empty
    /// for a file read as a plain event log.
    public let keys: [String?]

    /// Why an event log could not be read: `events.jsonl:3: "kind" is missing`, or a file error.
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var line: Int?
        public var reason: String
        public var description: String { path + (line.map { ":\($0)" } ?? "") + ": " + reason }
    }

    /// Reads and decodes the whole file (at most `WholeFile.defaultLimit` bytes). `asSpool` also reads
    /// each event's batch key (`SpoolLines`) into `keys`; otherwise a key is an error, as any other
    /// member that does not belong in an event.
    public init(path: String, asSpool: Bool = false) throws(ReadError) {
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
            throw ReadError(path: path, reason: "not UTF-8 text (an event log is JSON Lines)")
        }
        do {
            if asSpool {
                let records = try SpoolLines.decode(log: text)
                events = records.map(\.event)
                keys = records.map(\.key)
            } else {
                events = try JSONLines.decode(log: text)
                keys = []
            }
        } catch {
            throw ReadError(path: path, line: error.line, reason: error.reason)
        }
        contents = bytes
    }

    /// Whether anything is at `path` (a golden log that is missing is recorded, not an error).
    public static func exists(_ path: String) -> Bool { FileCheck.unreachable(path) == nil }

    private static func unreadable(_ path: String) -> String {
        if FileCheck.unreachable(path) != nil { return "no such file" }
        if FileCheck.isDirectory(path) { return "it is a directory, not an event log" }
        if !FileCheck.isRegularFile(path) { return "it is not a regular file (a FIFO or a device); an event log is a file" }
        return "it cannot be read (permission denied)"
    }

    /// The `Idempotency-Key` prefix for delivering this file in batches of `batchSize`:
    /// `spool-<FNV-1a 64 of the bytes and the batch size, 16 hex digits>`. Delivering the same file with
    /// the same batch size again gives the same keys, so a server that dedupes by key takes each batch
    /// once; a different file or batch size gives different keys.
    public func keyPrefix(batchSize: Int) -> String {
        var hash = FNV1a()
        hash.combine(contents)
        hash.combine("\n\(batchSize)".utf8)
        let hex = String(hash.value, radix: 16)
        return "spool-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
