import FileSystem

/// Reads a fix table (SEMANTICS §1) in one pass and bounded memory: the fixes themselves, a chunk of the
/// file, and its longest row. CSV (RFC 4180, a header row) or JSON Lines, told by `format` or else by the
/// file's extension; columns mapped by `columns`. Every bad row's problem is found, and they are thrown
/// together (`FixTableError.otherProblems`), each naming the file, line and column; with
/// `columns.skipInvalid` the bad rows are skipped instead, counted in a warning. Dropped fixes are
/// counted and the first of them kept as warnings.
///
/// A file of 4 MiB or more is read in pieces, four a core (at most 32), on all cores, then merged
/// in file order (`FixTableReader+Pieces.swift`): the table, its warnings and any error are the same as
/// on one thread.
///
/// ```swift
/// let table = try FixTableReader(path: "fleet.csv", columns: FixTableColumns(device: "van_id")).read()
/// for (i, id) in table.devices.enumerated() { print(id, table.fixes(ofDevice: i).count) }
/// ```
public struct FixTableReader: Sendable {
    /// The longest row (a CSV record, a JSON line), in bytes: 1 MiB.
    public static let maximumRowLength = 1 << 20

    public let path: String
    public let format: FixTableFormat?
    public let columns: FixTableColumns
    /// How many pieces to read the file in, whatever its size (1: on one thread); nil: four a core for a
    /// file of 4 MiB or more. Where a file cannot be cut (a CSV with quotes, a very long row) it is read
    /// on one thread.
    public let pieces: Int?

    public init(
        path: String, format: FixTableFormat? = nil, columns: FixTableColumns = FixTableColumns(),
        pieces: Int? = nil
    ) {
        self.path = path
        self.format = format
        self.columns = columns
        self.pieces = pieces
    }

    /// Reads the whole table.
    public func read() throws(FixTableError) -> FixTable {
        let format = try FixTableFormat.of(path, given: format)
        var file = try ChunkedFile(path: path)
        let pieces = pieceCount(file)
        switch format {
        case .csv:
            var reader = CSVFixes(path: path, names: columns)
            if pieces > 1 {
                try reader.readHeader(&file)
                if let table = try read(in: pieces, from: file.consumedBefore, of: file, csv: reader) { return table }
            }
            var builder = oneThreadBuilder()
            return try Self.finish(&builder) { (builder) throws(FixTableError) in try reader.read(&file, into: &builder) }
        case .jsonLines:
            if pieces > 1, let table = try read(in: pieces, from: 0, of: file, csv: nil) { return table }
            var reader = JSONLineFixes(path: path, names: columns)
            var builder = oneThreadBuilder()
            return try Self.finish(&builder) { (builder) throws(FixTableError) in try reader.read(&file, into: &builder) }
        }
    }

    /// The table `read` fills `builder` with, or the error of every problem of its rows (the one that
    /// stopped the read, if one did, last: `FixTableBuilder.problemsError`).
    private static func finish(
        _ builder: inout FixTableBuilder, _ read: (inout FixTableBuilder) throws(FixTableError) -> Void
    ) throws(FixTableError) -> FixTable {
        do {
            try read(&builder)
        } catch {
            throw builder.problemsError(ending: error) ?? error
        }
        if let error = builder.problemsError() { throw error }
        return builder.finish()
    }

    /// A builder for the read on one thread, with room made up front from the file's size: a row of a fix
    /// table is rarely under 40 bytes (a device, an ISO time, two coordinates); at most 8 M rows (a
    /// larger table grows as before).
    private func oneThreadBuilder() -> FixTableBuilder {
        var builder = FixTableBuilder(path: path, names: columns)
        if case let .success(info) = FileCheck.status(of: path) { builder.reserve(rows: Int(min(info.size / 40, 8 << 20))) }
        return builder
    }
}
