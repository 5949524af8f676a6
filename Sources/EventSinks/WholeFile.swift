import Foundation

/// Reads a whole file into memory: spool files, golden logs.
public enum WholeFile {
    /// The file's bytes (empty for an empty file), or nil when it cannot be opened or read, or is not a
    /// regular file (opening a FIFO would wait for a writer, possibly for ever).
    ///
    /// Not `FileManager.contents(atPath:)`: on Linux it leaks a 4 kB buffer for every empty file it reads.
    public static func read(_ path: String) -> Data? {
        guard isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard case .success(let data) = Result(catching: { try handle.readToEnd() }) else { return nil }
        return data ?? Data()  // readToEnd() is nil for an empty file
    }

    /// Whether `path` names a regular file (stat(2), without opening it).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
