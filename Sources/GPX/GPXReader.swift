import CLibXML2
import Geodesy

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

    /// Opens `path` for reading. Throws when it is missing, a directory, unreadable or empty.
    public init(path: String) throws(GPXError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw GPXError(file: path, line: 0, column: 0, message: "cannot open the file: \(reason).")
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw GPXError(file: path, line: 0, column: 0, message: "is a directory, not a GPX file.")
        }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: GPXReader.chunkSize, alignment: 16)
        let first = read(fd, chunk.baseAddress, GPXReader.chunkSize)
        if first <= 0 {
            let reason = first == 0 ? "the file is empty; a GPX file starts with <gpx ...>." :
                "cannot read the file: \(String(cString: strerror(errno)))."
            close(fd)
            chunk.deallocate()
            throw GPXError(file: path, line: 0, column: 0, message: reason)
        }
        file = path
        descriptor = fd
        buffer = chunk
        pendingFirst = first
        state = SAXState(file: path)
        state.start(first: UnsafeRawBufferPointer(rebasing: chunk[0..<first]))
    }

    private var pendingFirst: Int

    deinit {
        if descriptor >= 0 { close(descriptor) }
        buffer.deallocate()
        state.free()
    }

    /// The next segment start or point, or nil at the end of the file. O(1) amortised.
    ///
    /// After an error every further call throws the same error.
    public func next() throws(GPXError) -> GPXItem? {
        while true {
            if let failure { throw failure }
            if let item = state.popItem() { return item }
            if finished { return nil }
            feedNextChunk()
        }
    }

    /// Feeds one chunk (or the end of input) to the parser, and turns a parse failure into `failure`.
    private func feedNextChunk() {
        let count: Int
        if pendingFirst > 0 {
            count = pendingFirst
            pendingFirst = 0
        } else {
            count = read(descriptor, buffer.baseAddress, GPXReader.chunkSize)
        }
        if count < 0 {
            failure = GPXError(file: file, line: 0, column: 0,
                               message: "cannot read the file: \(String(cString: strerror(errno))).")
            return
        }
        let skip = state.bytesConsumedAtCreation
        state.bytesConsumedAtCreation = 0
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[skip..<max(skip, count)])
        state.feed(chunk, terminate: count == 0)
        if count == 0 {
            finished = true
            close(descriptor)
            descriptor = -1
        }
        if let error = state.error { failure = error }
    }
}
