import FileSystem
import SystemPackage

/// A file read forwards in chunks of 1 MiB into one buffer that also holds the unfinished record at a
/// chunk's end, so that a record is always contiguous. Memory: the chunk plus the longest record.
struct ChunkedFile: ~Copyable {
    static let chunkSize = 1 << 20

    private let descriptor: FileDescriptor
    let path: String
    /// The bytes read and not yet consumed are `buffer[start..<end]`.
    private(set) var buffer: [UInt8]
    private(set) var start = 0
    private(set) var end = 0
    /// No more bytes to read.
    private(set) var atEOF = false
    /// Bytes consumed before `buffer[start]`, for offsets in the file.
    private(set) var consumedBefore = 0

    /// Whether `deinit` closes the descriptor (not standard input's).
    private let ownsDescriptor: Bool

    /// Reads an open descriptor (standard input) named `name` in messages; it is left open.
    init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        path = name
        ownsDescriptor = false
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    init(path: String) throws(FixTableError) {
        if let problem = FileCheck.problemReading(path) {
            throw FixTableError(file: path, line: 0, column: 0, message: "cannot read the fix table: \(problem)")
        }
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw FixTableError(file: path, line: 0, column: 0,
                                message: "cannot read the fix table: \(FileError(thrown: error, path: path, action: "read"))")
        }
        self.path = path
        ownsDescriptor = true
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    deinit { if ownsDescriptor { try? descriptor.close() } }

    /// Marks `count` bytes from `start` as consumed.
    mutating func consume(_ count: Int) {
        start += count
        consumedBefore += count
    }

    /// Reads more: moves what is left to the front, grows the buffer when it is full, and reads up to a
    /// chunk. Returns false at the end of the file.
    mutating func refill() throws(FixTableError) -> Bool {
        guard !atEOF else { return false }
        if start > 0 {
            let left = end - start
            buffer.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: left)
            }
            start = 0
            end = left
        }
        if buffer.count - end < Self.chunkSize / 2 {
            buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        }
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBytes { raw in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
            }
        } catch {
            throw FixTableError(file: path, line: 0, column: 0,
                                message: "cannot read the fix table: \(FileError(thrown: error, path: path, action: "read"))")
        }
        if n == 0 { atEOF = true }
        end += n
        return n > 0
    }
}
