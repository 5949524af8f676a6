import Draws
import FileSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spool file or a run journal streamed for `perimeter deliver`, of any size: `check()` reads it once,
/// decoding every line (`SpoolLines`), so that a bad line is an error at its line and column before
/// anything is sent; `forEachRecord` then reads the same bytes again, event by event. The file is read in
/// chunks of `chunkSize` through one descriptor held open, so the file checked is the file sent even if
/// it is renamed meanwhile. Memory: one chunk plus the longest line (at most `maxLineBytes`), whatever
/// the file's size. O(size) per pass.
public final class SpoolFile {
    /// The longest line read: 1 MiB (an event's line is a few hundred bytes).
    public static let maxLineBytes = 1 << 20

    public let path: String
    /// The bytes read at once: 1 MiB unless a test asks for less.
    public let chunkSize: Int
    private let descriptor: FileDescriptor
    /// The events `check()` found.
    public private(set) var eventCount = 0
    /// The bytes `check()` read: the second pass reads no further (a run may be appending to the spool).
    private var checkedLength = 0
    private var hash = FNV1a()

    /// Opens the regular file at `path`; a FIFO or a device is refused without being opened.
    public init(path: String, chunkSize: Int = 1 << 20) throws(EventLogFile.ReadError) {
        self.path = path
        self.chunkSize = max(chunkSize, 1)
        if FileCheck.unreachable(path) != nil || FileCheck.notRegularFile(path) != nil {
            throw EventLogFile.ReadError(path: path, reason: EventLogFile.unreadable(path))
        }
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw EventLogFile.ReadError(path: path, reason: FileError(thrown: error, path: path, action: "read").cause)
        }
    }

    deinit { try? descriptor.close() }

    /// The file's device and inode, to tell whether another path names the same file.
    public var identity: (device: UInt64, inode: UInt64)? {
        guard let status = try? Stat(descriptor) else { return nil }
        return (UInt64(status.rawValue.st_dev), UInt64(status.rawValue.st_ino))
    }

    /// Reads the whole file and decodes every line; counts the events and hashes the bytes. Throws at
    /// the first bad line (not UTF-8, not an event, a batch of one key longer than `longestBatch`
    /// lines, a line over `maxLineBytes`).
    public func check(longestBatch: Int) throws(EventLogFile.ReadError) {
        var count = 0, run = 0
        var previous: String?
        hash = FNV1a()
        do {
            checkedLength = try forEachLine(upTo: nil) { line, number in
                let (_, key) = try decode(line, number)
                run = key != nil && key == previous ? run + 1 : 1
                previous = key
                if key != nil && run > longestBatch {
                    throw EventLogFile.ReadError(
                        path: path, line: number,
                        reason:
                            "more than \(longestBatch) lines share one \"\(SpoolLines.keyMember)\": a spooled batch holds at most \(longestBatch) events"
                    )
                }
                count += 1
            } hashing: {
                hash.combine($0)
            }
        } catch let error as EventLogFile.ReadError {
            throw error
        } catch {
            throw EventLogFile.ReadError(path: path, reason: "\(error)")
        }
        eventCount = count
    }

    /// Calls `body` with each event and its batch key (nil for a line without one), in order, reading the
    /// bytes `check()` read. Throws when they no longer decode, or hold another number of events (the
    /// file was changed between the two passes).
    public func forEachRecord(
        _ body: (WireEvent, String?) throws -> Void
    ) throws {
        var count = 0
        _ = try forEachLine(upTo: checkedLength) { line, number in
            let (event, key) = try decode(line, number)
            count += 1
            try body(event, key)
        } hashing: { _ in
        }
        guard count == eventCount else {
            throw EventLogFile.ReadError(
                path: path,
                reason: "the file changed while it was delivered: \(eventCount) events were checked, \(count) read again")
        }
    }

    /// The `Idempotency-Key` prefix for delivering this file in batches of `batchSize` (after `check()`):
    /// `spool-<FNV-1a 64 of the bytes and the batch size, 16 hex digits>`. Delivering the same file with
    /// the same batch size again gives the same keys, so a server that dedupes by key takes each batch
    /// once; a different file or batch size gives different keys.
    public func keyPrefix(batchSize: Int) -> String {
        var hash = self.hash
        hash.combine("\n\(batchSize)".utf8)
        let hex = String(hash.value, radix: 16)
        return "spool-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func decode(_ line: ArraySlice<UInt8>, _ number: Int) throws(EventLogFile.ReadError) -> (WireEvent, String?) {
        guard let text = String(validating: line, as: UTF8.self) else {
            throw EventLogFile.ReadError(path: path, line: number, reason: "not UTF-8 text (an event log is JSON Lines)")
        }
        do {
            return try SpoolLines.decode(line: text)
        } catch {
            throw EventLogFile.ReadError(path: path, line: number, column: error.column, reason: error.reason)
        }
    }

    /// Reads from the start to the end (or to `limit` bytes), calling `body` with each line that is not
    /// blank (without its LF or CRLF) and its 1-based number, and `hashing` with every chunk read.
    /// Returns the bytes read.
    private func forEachLine(
        upTo limit: Int?, _ body: (ArraySlice<UInt8>, Int) throws -> Void,
        hashing: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws -> Int {
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var buffer: [UInt8] = []  // the unfinished line, then the chunk after it
        buffer.reserveCapacity(chunkSize + 4096)
        var offset = 0, number = 0, atEnd = false
        func deliver(_ line: ArraySlice<UInt8>) throws {
            number += 1
            var line = line
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            try body(line, number)
        }
        while !atEnd {
            let wanted = limit.map { min(chunkSize, $0 - offset) } ?? chunkSize
            var read = 0
            if wanted > 0 {
                do {
                    read = try descriptor.read(
                        fromAbsoluteOffset: Int64(offset),
                        into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: chunk[..<wanted])))
                } catch {
                    throw EventLogFile.ReadError(
                        path: path, reason: FileError(thrown: error, path: path, action: "read").cause)
                }
                let got = UnsafeBufferPointer(rebasing: chunk[..<read])
                hashing(got)
                buffer.append(contentsOf: got)
                offset += read
            }
            atEnd = read == 0
            var lineStart = 0
            while let end = Self.lineEnd(in: buffer, from: lineStart) {
                try deliver(buffer[lineStart..<end])
                lineStart = end + 1
            }
            buffer.removeFirst(lineStart)
            if buffer.count > Self.maxLineBytes {
                throw EventLogFile.ReadError(
                    path: path, line: number + 1,
                    reason: "the line is over \(Self.maxLineBytes >> 20) MiB; a spool line is one event")
            }
        }
        if !buffer.isEmpty { try deliver(buffer[...]) }
        return offset
    }

    /// The index of the first LF in `buffer` at or after `start`, or nil (memchr).
    private static func lineEnd(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, bytes.count - start) else {
                return nil
            }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}
