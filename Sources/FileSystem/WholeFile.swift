import SystemPackage

/// Reads a whole file into memory, refusing what is not a regular file and what is over a size cap: the
/// one whole-file read for scenarios, region files, journeys, golden logs and spool files. O(size).
///
/// Not `FileManager.contents(atPath:)`: on Linux it leaks a 4 kB buffer for every empty file it reads.
public enum WholeFile {
    /// The default cap: 128 MB. A YAML document tree takes about 30 times its file.
    public static let defaultLimit: Int64 = 128 << 20

    /// Why a whole file was not read.
    public enum Failure: Error, Hashable, Sendable {
        /// Nothing at the path can be reached, it is not a regular file, or it may not be read: a
        /// sentence naming the path (`FileCheck`'s).
        case unreadable(String)
        /// The file is over `limit` bytes (`size` when opened).
        case tooLarge(size: Int64, limit: Int64)
        /// A system call failed.
        case system(FileError)
    }

    /// The bytes of the regular file at `path` (empty for an empty file). Checks with stat(2) before
    /// opening, so a FIFO or a device is never opened.
    public static func read(_ path: String, limit: Int64 = defaultLimit) throws(Failure) -> [UInt8] {
        if let problem = FileCheck.unreachable(path) ?? FileCheck.notRegularFile(path) { throw .unreadable(problem) }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch Errno.permissionDenied {
            throw .unreadable("\(path) cannot be read (permission denied)")
        } catch {
            throw .system(FileError(thrown: error, path: path, action: "read"))
        }
        defer { try? fd.close() }
        let size: Int64
        do {
            size = try Stat(fd).size
        } catch {
            throw .system(FileError(error, path: path, action: "read"))
        }
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: Int(size) + 1)  // one more, to see growth
        var count = 0
        do {
            while true {
                if count == bytes.count {
                    guard Int64(count) <= limit else { throw Failure.tooLarge(size: Int64(count), limit: limit) }
                    bytes.append(contentsOf: repeatElement(0, count: max(4096, count)))
                }
                let n = try bytes.withUnsafeMutableBytes { raw in
                    try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
                }
                if n == 0 { break }
                count += n
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .system(FileError(thrown: error, path: path, action: "read"))
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

extension WholeFile.Failure: CustomStringConvertible {
    /// A sentence without the path, except where the path is the subject (`FileCheck`'s sentences).
    public var description: String {
        switch self {
        case let .unreadable(problem): return problem
        case let .tooLarge(size, limit): return "the file is \(size >> 20) MB, over the \(limit >> 20) MB that is read whole"
        case let .system(error): return error.description
        }
    }
}
