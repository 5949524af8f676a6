import FileSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read forwards in chunks of 1 MiB into one buffer that also holds the unfinished record at a
/// chunk's end, so that a record is always contiguous. Memory: the chunk plus the longest record.
///
/// A window (`init(path:window:stoppingAt:)`) reads only a byte range of the file, with pread at its
/// own offsets, so that several windows over one file are read at once on several threads.
struct ChunkedFile: ~Copyable {
    static let chunkSize = 1 << 20
    /// The bytes read at a time (`chunkSize` unless given).
    private let chunk: Int
    /// How often a read that waits for input (a pipe) wakes to ask `isCancelled`: 100 ms.
    static let wakeInterval: Duration = .milliseconds(100)

    private let descriptor: FileDescriptor
    let path: String
    /// The bytes read and not yet consumed are `buffer[start..<end]`.
    private(set) var buffer: [UInt8]
    private(set) var start = 0
    private(set) var end = 0
    /// No more bytes to read.
    private(set) var atEOF = false
    /// Bytes consumed before `buffer[start]`, for offsets in the file (in a window: from its start).
    private(set) var consumedBefore = 0

    /// Whether `deinit` closes the descriptor (not standard input's).
    private let ownsDescriptor: Bool
    /// A window: the file offset read next, and where the window ends.
    private var window: Range<Int>?
    /// A window ends early, before the first chunk that holds this byte.
    private var stopByte: UInt8?
    /// The window ended early at `stopByte`.
    private(set) var stopped = false
    /// Asked before each read and, while none is ready, every `wakeInterval`: true stops the read
    /// (`FixTableError.isInterruption`). Nil: reads block.
    private let isCancelled: (@Sendable () -> Bool)?

    /// Reads an open descriptor (standard input) named `name` in messages; it is left open. With
    /// `isCancelled`, a read that waits for input stops once it says so.
    init(descriptor: FileDescriptor, name: String, isCancelled: (@Sendable () -> Bool)? = nil) {
        self.descriptor = descriptor
        path = name
        ownsDescriptor = false
        self.isCancelled = isCancelled
        chunk = Self.chunkSize
        buffer = Self.unwrittenBuffer(chunk)
    }

    init(path: String, chunkSize: Int = Self.chunkSize) throws(FixTableError) {
        if let problem = FileCheck.problemReading(path) {
            throw FixTableError(file: path, line: 0, column: 0, message: "cannot read the fix table: \(problem)")
        }
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw Self.readError(error, path)
        }
        self.path = path
        ownsDescriptor = true
        isCancelled = nil
        chunk = chunkSize
        buffer = Self.unwrittenBuffer(chunk)
    }

    /// Reads the bytes `window` of the file at `path` (offsets in bytes), as if they were the whole file;
    /// with `stop`, it ends (`stopped`) before the first chunk that holds that byte. `chunkSize`: the bytes
    /// read at a time (less for a look at a window's first line).
    init(
        path: String, window: Range<Int>, stoppingAt stop: UInt8? = nil, chunkSize: Int = Self.chunkSize
    ) throws(FixTableError) {
        try self.init(path: path, chunkSize: chunkSize)
        self.window = window
        stopByte = stop
    }

    deinit { if ownsDescriptor { try? descriptor.close() } }

    /// A buffer of `count` bytes not set to zero first: only `buffer[start..<end]` is ever read, and read(2)
    /// writes every byte of it (a chunk's megabyte was set to zero for nothing, a piece of a fleet's read
    /// and each look at where a piece starts). O(1).
    private static func unwrittenBuffer(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    private static func readError(_ error: any Error, _ path: String) -> FixTableError {
        FixTableError(
            file: path, line: 0, column: 0,
            message: "cannot read the fix table: \(FileError(thrown: error, path: path, action: "read"))")
    }

    /// The file's size in bytes (nil when fstat fails).
    func size() -> Int? {
        var status = stat()
        return fstat(descriptor.rawValue, &status) == 0 ? Int(status.st_size) : nil
    }

    /// Marks `count` bytes from `start` as consumed.
    mutating func consume(_ count: Int) {
        start += count
        consumedBefore += count
    }

    /// Skips a UTF-8 byte order mark (EF BB BF, which Excel writes before a CSV's header) at `start`,
    /// reading on until four bytes are buffered or the input ends, and refuses Apache Parquet (`PAR1`)
    /// with what to do instead (`ParquetFile.advice`). Call it at the start of a file. O(1).
    mutating func skipByteOrderMark() throws(FixTableError) {
        while end - start < 4, try refill() {}
        if end - start >= 4, ParquetFile.starts(buffer[start..<start + 4]) {
            throw FixTableError(
                file: path, line: 1, column: 1, message: ParquetFile.advice(for: ownsDescriptor ? path : nil))
        }
        consume(ByteOrderMark.length(at: buffer[start..<end]))
    }

    /// The index in `buffer` of the first `byte` at or after `start`, reading on until one is buffered;
    /// nil at the end of the file, or once more than `limit` bytes are buffered without one.
    mutating func firstIndex(of byte: UInt8, within limit: Int) throws(FixTableError) -> Int? {
        while true {
            let (start, end) = (self.start, self.end)
            // C interop: the buffer holds the chunk, so it has an address.
            // swift-format-ignore: NeverForceUnwrap
            let found = buffer.withUnsafeBufferPointer { b in
                memchr(b.baseAddress! + start, Int32(byte), end - start).map {
                    UnsafeRawPointer($0) - UnsafeRawPointer(b.baseAddress!)
                }
            }
            if found != nil || end - start > limit { return found }
            if try !refill() { return nil }
        }
    }

    /// Reads more: moves what is left to the front, grows the buffer when it is full, and reads up to a
    /// chunk. Returns false at the end of the file (or of the window).
    mutating func refill() throws(FixTableError) -> Bool {
        guard !atEOF else { return false }
        if start > 0 {
            let left = end - start
            buffer.withUnsafeMutableBytes { raw in
                // C interop: the buffer holds the chunk, so it has an address.
                // swift-format-ignore: NeverForceUnwrap
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: left)
            }
            start = 0
            end = left
        }
        if buffer.count - end < chunk / 2 {
            buffer.append(contentsOf: repeatElement(0, count: chunk))
        }
        try awaitInput()
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBytes { raw in
                guard let window else {
                    return try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
                }
                let count = min(raw.count - end, window.count)
                return try descriptor.read(
                    fromAbsoluteOffset: Int64(window.lowerBound),
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[end..<end + count]))
            }
        } catch {
            throw Self.readError(error, path)
        }
        // C interop: the buffer holds the chunk, so it has an address.
        // swift-format-ignore: NeverForceUnwrap
        if let stopByte, n > 0, buffer.withUnsafeBufferPointer({ memchr($0.baseAddress! + end, Int32(stopByte), n) }) != nil
        {
            stopped = true
            atEOF = true
            return false
        }
        window = window.map { $0.lowerBound + n..<$0.upperBound }
        if n == 0 { atEOF = true }
        end += n
        return n > 0
    }

    /// Returns once the descriptor has bytes, its end or an error to read (the read then tells which),
    /// asking `isCancelled` first and every `wakeInterval` while poll(2) sleeps; throws an interruption
    /// once it says so. No CPU is spent while waiting.
    private func awaitInput() throws(FixTableError) {
        guard let isCancelled else { return }
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(Self.wakeInterval / .milliseconds(1))
        while true {
            if isCancelled() { throw .interrupted(path) }
            let ready = poll(&entry, 1, milliseconds)
            // Any event (POLLIN, and POLLHUP, POLLERR or POLLNVAL: the end, an error, a descriptor that is
            // not open) means "read now": the read tells which, at once.
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
        }
    }
}
