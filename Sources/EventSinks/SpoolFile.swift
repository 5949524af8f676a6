import Foundation

/// A spool file: the events an HTTP sink could not deliver, as JSON Lines (the format of `jsonl:`),
/// read back by `perimeter deliver`.
public struct SpoolFile: Sendable {
    public let path: String
    /// The file's bytes, as read.
    public let contents: Data
    /// The events, in order.
    public let events: [WireEvent]

    /// Why a spool file could not be read: `events.jsonl:3: "kind" is missing`, or a file error.
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var line: Int?
        public var reason: String
        public var description: String { path + (line.map { ":\($0)" } ?? "") + ": " + reason }
    }

    /// Reads and decodes the whole file; nothing is sent from a file with a bad line.
    public init(path: String) throws(ReadError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReadError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw ReadError(path: path, reason: "it is a directory, not a spool file") }
        guard WholeFile.isRegularFile(path) else {
            throw ReadError(path: path, reason: "it is not a regular file (a FIFO or a device); a spool file is a file")
        }
        guard let data = WholeFile.read(path) else {
            throw ReadError(path: path, reason: "cannot be read (permission denied?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ReadError(path: path, reason: "not UTF-8 text (a spool file is JSON Lines)")
        }
        do {
            events = try JSONLinesSink.decode(log: text)
        } catch {
            throw ReadError(path: path, line: error.line, reason: error.reason)
        }
        contents = data
    }

    /// A spool file's name, unique to this process and second: `STEM-20161001T120000Z-4242.jsonl` (UTC).
    public static func name(stem: String, at date: Date = Date(),
                            pid: Int32 = ProcessInfo.processInfo.processIdentifier) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        let stamp = "\(c.year ?? 0)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
        return "\(stem)-\(stamp)-\(pid).jsonl"
    }

    /// The `Idempotency-Key` prefix for delivering this file in batches of `batchSize`:
    /// `spool-<FNV-1a 64 of the bytes and the batch size, 16 hex digits>`. Delivering the same file with
    /// the same batch size again gives the same keys, so a server that dedupes by key takes each batch
    /// once; a different file or batch size gives different keys.
    public func keyPrefix(batchSize: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        for byte in contents { mix(byte) }
        for byte in "\n\(batchSize)".utf8 { mix(byte) }
        let hex = String(hash, radix: 16)
        return "spool-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
