import Draws
import Foundation
import TestSupport
import Testing

@testable import WireFormat

/// `SpoolFile`, the stream `perimeter deliver` reads (G5 of issue 37): every line checked before any is
/// handed on, in chunks as small as one byte, with the errors at their line and column.
@Suite struct SpoolFileTests {
    /// A spool's lines: `samples`' events, keyed `k-0` in pairs, then two without a key.
    static let lines: [String] = samples.prefix(6).enumerated().map { i, sample in
        let line = JSONLines.encode(sample.event)
        return i < 4 ? SpoolLines.line(line, key: "k-\(i / 2)") : line
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var text: String
        /// The keys of the events read, in order; nil when the file is refused.
        var keys: [String?]?
        /// The refusal, after the path (`:LINE[:COLUMN]: reason`).
        var refusal: String?
        var longestBatch = 100
        var testDescription: String { id }
    }

    static let good = lines.joined(separator: "\n") + "\n"
    static let goodKeys: [String?] = ["k-0", "k-0", "k-1", "k-1", nil, nil]

    static let cases: [Case] = [
        Case(id: "six events", text: good, keys: goodKeys),
        Case(id: "no line end after the last", text: String(good.dropLast()), keys: goodKeys),
        Case(
            id: "CRLF line ends and blank lines (counted, skipped)",
            text: "\r\n" + lines.joined(separator: "\r\n  \r\n") + "\r\n", keys: goodKeys),
        Case(id: "an empty file", text: "", keys: []),
        Case(
            id: "a bad line after good ones: refused at its line and column",
            text: lines[0] + "\n" + lines[1] + "\n{\"time\" 1}\n" + lines[2] + "\n",
            refusal: ":3:9: not a JSON event object: expected ':' at column 9"),
        Case(
            id: "an event without its kind, at line 5", text: lines.prefix(4).joined(separator: "\n") + "\n{\"time\":1}\n",
            refusal: ":5:"),
        Case(
            id: "bytes that are not UTF-8", text: lines[0] + "\n{\"device\":\"\u{FFFD}\"}\n",
            refusal: ":2: not UTF-8 text (an event log is JSON Lines)"),
        Case(
            id: "more lines under one key than a batch holds", text: good, refusal: ":2: more than 1 lines share one",
            longestBatch: 1),
    ]

    static func write(_ text: String) throws -> String {
        let folder = try TemporaryFolders.make("spool-file")
        let path = folder.appendingPathComponent("spool.jsonl").path
        var bytes = Array(text.utf8)
        // U+FFFD stands for a byte that is not UTF-8: 0xFF.
        let replacement = Array("\u{FFFD}".utf8)
        if let at = bytes.indices.first(where: { bytes[$0...].starts(with: replacement) }) {
            bytes.replaceSubrange(at..<at + replacement.count, with: [0xFF])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("read in chunks of any size, the same events and keys, or the same refusal", arguments: cases, [1, 7, 1 << 20])
    func reads(_ c: Case, chunkSize: Int) throws {
        let path = try Self.write(c.text)
        let file = try SpoolFile(path: path, chunkSize: chunkSize)
        do {
            try file.check(longestBatch: c.longestBatch)
        } catch {
            #expect(c.refusal.map { error.description.hasPrefix(path + $0) } == true, "\(error)")
            return
        }
        #expect(c.refusal == nil, "accepted")
        var keys: [String?] = [], events: [WireEvent] = []
        try file.forEachRecord { event, key in
            events.append(event)
            keys.append(key)
        }
        #expect(keys == c.keys)
        #expect(file.eventCount == keys.count)
        let expected = samples.prefix(6).map { WireEvent($0.event) }
        #expect(events == Array(expected.prefix(events.count)))
    }

    @Test("the key prefix hashes the whole file and the batch size, whatever the chunks")
    func keyPrefix() throws {
        let path = try Self.write(Self.good)
        var hash = FNV1a()
        hash.combine(Array(Self.good.utf8))
        hash.combine("\n500".utf8)
        let hex = String(hash.value, radix: 16)
        let expected = "spool-" + String(repeating: "0", count: 16 - hex.count) + hex
        for chunkSize in [1, 7, 1 << 20] {
            let file = try SpoolFile(path: path, chunkSize: chunkSize)
            try file.check(longestBatch: 100)
            #expect(file.keyPrefix(batchSize: 500) == expected)
            #expect(file.keyPrefix(batchSize: 2) != expected)
        }
    }

    @Test("a line longer than 1 MiB is refused, with bounded memory")
    func longLine() throws {
        let path = try Self.write(Self.lines[0] + "\n" + String(repeating: "x", count: SpoolFile.maxLineBytes + 10))
        let file = try SpoolFile(path: path, chunkSize: 64 << 10)
        let error = #expect(throws: EventLogFile.ReadError.self) { try file.check(longestBatch: 100) }
        #expect(error?.description == path + ":2: the line is over 1 MiB; a spool line is one event")
    }

    @Test("lines appended after the check are not read; a file cut short is refused")
    func changedBetweenPasses() throws {
        let path = try Self.write(Self.good)
        let file = try SpoolFile(path: path, chunkSize: 7)
        try file.check(longestBatch: 100)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((Self.lines[0] + "\n").utf8))  // a run appending to the spool
        var count = 0
        try file.forEachRecord { _, _ in count += 1 }
        #expect(count == 6, "only what was checked")
        try handle.truncate(atOffset: UInt64(Self.lines[0].utf8.count + 1))
        try handle.close()
        let error = #expect(throws: EventLogFile.ReadError.self) { try file.forEachRecord { _, _ in } }
        #expect(
            error?.description
                == path + ": the file changed while it was delivered: 6 events were checked, 1 read again")
    }

    @Test("a hard link is the same file; a copy is not")
    func identity() throws {
        let path = try Self.write(Self.good)
        let link = path + ".link", copy = path + ".copy"
        try FileManager.default.linkItem(atPath: path, toPath: link)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let file = try SpoolFile(path: path)
        let linked = try SpoolFile(path: link), copied = try SpoolFile(path: copy)
        #expect(file.identity.map { [$0.device, $0.inode] } == linked.identity.map { [$0.device, $0.inode] })
        #expect(file.identity.map { [$0.device, $0.inode] } != copied.identity.map { [$0.device, $0.inode] })
    }

    @Test("a missing file, a folder or a FIFO is refused without being opened", arguments: ["missing", "folder", "fifo"])
    func notAFile(kind: String) throws {
        let folder = try TemporaryFolders.make("spool-file").path
        let path = kind == "folder" ? folder : folder + "/spool.jsonl"
        if kind == "fifo" { #expect(mkfifo(path, 0o600) == 0) }
        let reasons = [
            "missing": "no such file", "folder": "it is a directory, not an event log",
            "fifo": "it is not a regular file (a FIFO or a device); an event log is a file",
        ]
        let error = #expect(throws: EventLogFile.ReadError.self) { try SpoolFile(path: path) }
        #expect(error?.description == path + ": " + reasons[kind]!)
    }
}
