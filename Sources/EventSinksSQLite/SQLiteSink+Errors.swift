import EventSinks
import FileSystem
import GRDB
import SystemPackage

extension SQLiteSink {
    /// `error` as a `SinkError` on `path`: a sentence per SQLite condition, with SQLite's own message and,
    /// where it helps, the statement that failed. `action` says what was tried ("open", "write to", …).
    static func sinkError(_ error: any Error, spec: String, path: String, doing action: String) -> SinkError {
        if let error = error as? SinkError { return error }
        guard let error = error as? DatabaseError else {
            return SinkError(spec: spec, path: path, reason: "cannot \(action) \"\(path)\": \(error)")
        }
        let sqlite = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
        let statement = error.sql.map { " while executing `\(Self.shortened($0))`" } ?? ""
        var result: SinkError
        switch error.resultCode {
        case .SQLITE_NOTADB:
            result = SinkError(
                spec: spec, path: path,
                reason: "cannot \(action) \"\(path)\": it is not an SQLite database (\(sqlite)); "
                    + "give the path of a new file or of a database written by perimeter")
        case .SQLITE_FULL:
            result = SinkError(FileError(.noSpace, path: path, action: action), spec: spec)
            result.reason += " (\(sqlite)\(statement))"
        case .SQLITE_IOERR:
            result = SinkError(FileError(.ioError, path: path, action: action), spec: spec)
            result.reason += " (\(sqlite)\(statement))"
        case .SQLITE_READONLY, .SQLITE_PERM:
            result = SinkError(
                spec: spec, path: path,
                reason: "cannot \(action) \"\(path)\": the database is read-only (\(sqlite)); "
                    + "check that the file and its directory \"\(FileNames.directory(of: path))\" are "
                    + "writable (SQLite's write-ahead log lives beside the file)",
                errorNumber: Errno.permissionDenied.rawValue)
        case .SQLITE_CANTOPEN:
            result = SinkError(
                spec: spec, path: path,
                reason: "cannot \(action) \"\(path)\": SQLite cannot open it or its write-ahead log "
                    + "(\(sqlite)); check that the directory \"\(FileNames.directory(of: path))\" "
                    + "exists and is writable")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            result = SinkError(
                spec: spec, path: path,
                reason: "cannot \(action) \"\(path)\": the database stayed locked by another "
                    + "connection for \(Int(SQLiteSink.busyTimeout)) s (\(sqlite)\(statement))")
        case .SQLITE_CORRUPT:
            result = SinkError(
                spec: spec, path: path,
                reason: "cannot \(action) \"\(path)\": the database is corrupt (\(sqlite)); "
                    + "give the path of a new file")
        default:
            result = SinkError(spec: spec, path: path, reason: "cannot \(action) \"\(path)\": \(sqlite)\(statement)")
        }
        return result
    }

    /// A statement on one line, cut after 200 characters.
    private static func shortened(_ sql: String) -> String {
        let line = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return line.count <= 200 ? line : String(line.prefix(200)) + "…"
    }
}
