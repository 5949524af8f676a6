import CLibXML2
import FileSystem
import ReadableText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thing a `GPXReader` found, in document order.
public enum GPXItem: Sendable, Hashable {
    /// A `<trkseg>` (or a `<trk>` whose points stand outside any trkseg) or an `<rte>` begins; the
    /// points of `kind` that follow belong to it. `line` is its start tag's line.
    case segmentStart(PointKind, line: Int)
    /// A `trkpt`, `rtept` or `wpt`, as written: coordinates are not range-checked and times not
    /// ordered here (`GPXTrack.load` applies SEMANTICS §1). Its ordinal counts points of its kind.
    case point(PointKind, TrackPoint)
}

/// A pull reader of GPX points over libxml2's SAX2 push parser, fed 64 KB at a time.
///
/// Memory is bounded by the chunk size and the points of one chunk, whatever the file's size;
/// time is linear in the file's length. GPX 1.0, 1.1 and no-namespace files are read alike;
/// `<extensions>` and elements of foreign namespaces are skipped. DTDs that declare entities or
/// point outside the file are refused; nothing is ever fetched from the network or the disk.
///
/// ```swift
/// let reader = try GPXReader(path: "run.gpx")
/// while let item = try reader.next() { ... }
/// ```
public final class GPXReader {
    /// The path as given.
    public let file: String
    /// Bytes handed to libxml2 per call: small enough to keep memory flat, large enough to be fast.
    public static let chunkSize = 64 * 1024

    private let state: SAXState
    private var descriptor: Int32
    private var buffer: UnsafeMutableRawBufferPointer
    private var finished = false
    private var failure: GPXError?
    /// The first chunk, read by init (to tell an empty file) and not yet fed.
    private var pendingFirst: Int
    /// A regular file's size and modification time when it was opened; nil for a stream.
    private let snapshot: FileSnapshot?
    /// Bytes read so far (compressed bytes, for a gzip file).
    private var consumed = 0
    /// For a gzip file (found by its first bytes, whatever its name): the inflater, and its plain bytes.
    private var inflater: GzipInflater?
    private var inflated: UnsafeMutableRawBufferPointer?
    /// A gzip file may not inflate to more than this many times its size once past `bombFloor` bytes:
    /// GPX compresses 10 to 20 times; a file that expands 200 times was made to.
    static let bombRatio = 200
    static let bombFloor = 100 * 1024 * 1024

    /// Opens the regular file at `path` for reading. Throws when it is missing, a directory, a FIFO or
    /// another non-regular file, unreadable or empty.
    ///
    /// A FIFO is refused rather than read: opening one waits for a writer, possibly forever, and its
    /// bytes can be read only once. The file must not change while it is read: a file still being
    /// written (appended to by a logger, say) gives an error rather than a track cut at a random point.
    public convenience init(path: String) throws(GPXError) {
        // O_NONBLOCK: opening a FIFO that no one writes to must not block before it can be refused.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let reason =
                errno == ENOENT ? "no such file" + (FileCheck.backslashHint(path) ?? "") : String(cString: strerror(errno))
            throw GPXError(file: path, line: 0, column: 0, message: "cannot open the file: \(reason).")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw GPXError(file: path, line: 0, column: 0, message: "cannot read the file: \(reason).")
        }
        if let kind = FileCheck.notRegular(mode: UInt32(info.st_mode), expected: "GPX file").map({ $0 + "." }) {
            close(fd)
            throw GPXError(file: path, line: 0, column: 0, message: kind)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        try self.init(descriptor: fd, name: path, snapshot: FileSnapshot(info))
    }

    /// Reads GPX from an open descriptor (a pipe, a socket or a file) to its end, and closes it then.
    /// `name` is what errors call it. For streams a program makes itself; a path goes through
    /// `init(path:)`.
    public convenience init(fileDescriptor: Int32, name: String) throws(GPXError) {
        try self.init(descriptor: fileDescriptor, name: name, snapshot: nil)
    }

    private init(descriptor fd: Int32, name: String, snapshot: FileSnapshot?) throws(GPXError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: GPXReader.chunkSize, alignment: 16)
        let first = readRetrying(
            fd, chunk.baseAddress, snapshot.map { min(GPXReader.chunkSize, $0.size) } ?? GPXReader.chunkSize)
        if first <= 0 {
            let reason =
                first == 0
                ? "the file is empty; a GPX file starts with <gpx ...>."
                : "cannot read the file: \(String(cString: strerror(errno)))."
            close(fd)
            chunk.deallocate()
            throw GPXError(file: name, line: 0, column: 0, message: reason)
        }
        file = name
        descriptor = fd
        buffer = chunk
        pendingFirst = first
        consumed = first
        self.snapshot = snapshot
        state = SAXState(file: name)
        // From here on, deinit closes and frees what a thrown error leaves.
        var plainFirst = UnsafeRawBufferPointer(rebasing: chunk[0..<first])
        if isGzip(plainFirst) {
            let inflater = GzipInflater(),
                out = UnsafeMutableRawBufferPointer.allocate(byteCount: GPXReader.chunkSize, alignment: 16)
            self.inflater = inflater
            inflated = out
            inflater.supply(plainFirst)
            pendingFirst = 0
            let count = nextInflated()
            if let failure { throw failure }
            guard count > 0 else {
                throw GPXError(
                    file: name, line: 0, column: 0, message: "the gzip file holds no data; a GPX file starts with <gpx ...>."
                )
            }
            pendingFirst = count
            plainFirst = UnsafeRawBufferPointer(rebasing: out[0..<count])
        }
        if let notGPX = Self.whatItIs(plainFirst) {
            throw GPXError(file: name, line: 0, column: 0, message: notGPX)
        }
        state.start(first: plainFirst)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        buffer.deallocate()
        inflated?.deallocate()
        state.free()
    }

    /// The next segment start or point, or nil at the end of the file. O(1) amortised.
    ///
    /// After an error every further call throws the same error.
    /// How many `<time>`s read so far were written without a zone (read as UTC, as GPX's schema means
    /// them).
    public var zonelessTimes: Int { state.timeCache.zonelessCount }

    public func next() throws(GPXError) -> GPXItem? {
        while true {
            if let failure { throw failure }
            if let item = state.popItem() { return item }
            if finished { return nil }
            feedNextChunk()
        }
    }

    /// Feeds one chunk (or the end of input) to the parser, and turns a parse failure into `failure`.
    /// A regular file is read up to the size it had when opened, then checked for a change.
    private func feedNextChunk() {
        let count: Int
        let plain = inflated ?? buffer
        if pendingFirst > 0 {
            count = pendingFirst
            pendingFirst = 0
        } else if inflater != nil {
            count = nextInflated()
            if failure != nil { return }
        } else {
            let wanted = snapshot.map { min(GPXReader.chunkSize, $0.size - consumed) } ?? GPXReader.chunkSize
            count = wanted > 0 ? readRetrying(descriptor, buffer.baseAddress, wanted) : 0
            if count > 0 { consumed += count }
        }
        if count < 0 {
            failure = GPXError(
                file: file, line: 0, column: 0,
                message: "cannot read the file: \(String(cString: strerror(errno))).")
            return
        }
        let skip = state.bytesConsumedAtCreation
        state.bytesConsumedAtCreation = 0
        let chunk = UnsafeRawBufferPointer(rebasing: plain[skip..<max(skip, count)])
        state.feed(chunk, terminate: count == 0)
        // A file that changed under the reader explains any parse error better than the error does.
        if count == 0 || state.error != nil, let change = changeSinceOpened(atEnd: count == 0) {
            failure = GPXError(file: file, line: 0, column: 0, message: change)
            return
        }
        if count == 0 {
            finished = true
            close(descriptor)
            descriptor = -1
        }
        if let error = state.error { failure = error }
    }

    /// The next plain bytes of a gzip file, in `inflated`: their count, 0 at the end of the data, or -1
    /// with `failure` set (cut short, corrupt, a bomb, a read error). Reads compressed bytes into
    /// `buffer` as the inflater needs them.
    private func nextInflated() -> Int {
        guard let inflater, let inflated else { return 0 }
        while true {
            if inflater.needsInput {
                let wanted = snapshot.map { min(GPXReader.chunkSize, $0.size - consumed) } ?? GPXReader.chunkSize
                let read = wanted > 0 ? readRetrying(descriptor, buffer.baseAddress, wanted) : 0
                if read < 0 {
                    failure = GPXError(
                        file: file, line: 0, column: 0, message: "cannot read the file: \(String(cString: strerror(errno)))."
                    )
                    return -1
                }
                if read == 0 {
                    if inflater.atMemberEnd { return 0 }
                    failure = GPXError(
                        file: file, line: 0, column: 0,
                        message: changeSinceOpened(atEnd: true)
                            ?? "the gzip data ends early, after \(Readable.grouped(Int64(consumed))) bytes: the file is cut short; fetch it again."
                    )
                    return -1
                }
                consumed += read
                inflater.supply(UnsafeRawBufferPointer(rebasing: buffer[0..<read]))
            }
            let count: Int
            do {
                count = try inflater.inflate(into: inflated)
            } catch {
                guard case let .corrupt(message, after) = error else { return -1 }
                failure = GPXError(
                    file: file, line: 0, column: 0,
                    message: changeSinceOpened(atEnd: false)
                        ?? "the gzip data is corrupt after \(Readable.grouped(Int64(after))) bytes (zlib: \(message)); fetch the file again."
                )
                return -1
            }
            if inflater.inflatedBytes > Self.bombFloor
                && inflater.inflatedBytes / max(1, inflater.compressedBytes) > Self.bombRatio
            {
                let sizes =
                    "\(Readable.grouped(Int64(inflater.inflatedBytes))) bytes from \(Readable.grouped(Int64(inflater.compressedBytes)))"
                failure = GPXError(
                    file: file, line: 0, column: 0,
                    message:
                        "the gzip data expands more than \(Self.bombRatio) times (\(sizes)), which no GPX file does "
                        + "(they compress 10 to 20 times): refused as a gzip bomb.")
                return -1
            }
            if count > 0 { return count }
        }
    }

    /// What a file that is not GPX is, when its first bytes say so: a sentence for the error, or nil.
    static func whatItIs(_ first: UnsafeRawBufferPointer) -> String? {
        let bytes = first.dropFirst(ByteOrderMark.length(at: first))
        if ParquetFile.starts(bytes) {
            return "this is Apache Parquet, not GPX: a table of fixes in Parquet goes through "
                + "Scripts/parquet-rows.py into a CSV or into perimeter stream (README \"Fix tables and field logs in Parquet\")."
        }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "this is a zip archive, not GPX: unzip it and give the .gpx inside (a .gpx.gz is read as it is)."
        }
        guard let start = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return "this is JSON (GeoJSON?), not GPX: a track must be a GPX file (<gpx> with <trk>, <trkseg> and "
                + "<trkpt lat=… lon=…> points), or a gzip of one; regions from GeoJSON go under regions: - geojson: FILE."
        case UInt8(ascii: "<"):
            return nil
        default:
            let line = bytes[start...].prefix { $0 != 0x0A }
            if line.contains(UInt8(ascii: ",")) || line.contains(0x09) {
                return "this looks like CSV, not GPX: a table of fixes goes under devices: - fixes: FILE "
                    + "(columns device, time, lat, lon; see README \"Fleets in a table\")."
            }
            return nil
        }
    }

    /// Why the file is not the one that was opened (it grew, shrank or was rewritten), or nil. `atEnd`:
    /// reading stopped, so every byte it had when opened should have been read.
    private func changeSinceOpened(atEnd: Bool) -> String? {
        guard let snapshot else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let now = FileSnapshot(info)
        guard now != snapshot || (atEnd && consumed != snapshot.size) else { return nil }
        let sizes = now.size == snapshot.size ? "rewritten" : "\(snapshot.size) bytes when opened, \(now.size) now"
        return "the file changed while it was read (\(sizes)): is it still being written? Read it once it is complete."
    }
}

/// A regular file's size and modification time: a change in either means it changed.
private struct FileSnapshot: Equatable {
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(_ info: stat) {
        size = Int(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}

/// read(2), retried when a signal interrupts it.
private func readRetrying(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n < 0 && errno == EINTR { continue }
        return n
    }
}
