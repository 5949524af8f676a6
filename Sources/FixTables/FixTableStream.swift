import SystemPackage

/// One device's fixes from a streamed fix table: its rows, in order, once they have ended.
public struct StreamedDevice: Hashable, Sendable {
    public var id: String
    /// In file order; times never go back (of equal times the later row's fix is kept).
    public var fixes: [TableFix]
}

/// Reads a fix table (SEMANTICS §1) device by device, for `perimeter stream`: each device's rows must
/// follow each other and be in time order, and a device is handed over as soon as the next device's
/// first row (or the end of the table) arrives. Memory: one device's fixes (at most
/// `maximumDeviceRows`), a chunk of the input, its longest row, and the ids seen (to refuse a device
/// that comes back). O(rows).
///
/// A bad row is thrown after the device before it is handed over when the row names another device,
/// even a row cut short by the end of the input (a writer that died mid-row); with `skipInvalid` in the
/// columns it is skipped instead, as if it were not there, and counted (`tableWarnings`). Standard input is
/// waited on in slices of `ChunkedFile.wakeInterval`, so that a signal stops a stream that waits for
/// a row (`interrupted`).
///
/// ```swift
/// var reader = FixTableStream(standardInputAs: .csv)
/// while let device = try reader.next() { print(device.id, device.fixes.count) }
/// ```
public struct FixTableStream: ~Copyable {
    private enum Rows {
        case csv(CSVFixes)
        case jsonLines(JSONLineFixes)
    }

    private var file: ChunkedFile
    private var rows: Rows
    private var builder: FixTableBuilder
    private var ended = false
    /// A bad row found while ending the device before it, thrown at the next call.
    private var pending: FixTableError?
    /// `isCancelled` stopped the read: the stream ended early, the device being read not handed over.
    public private(set) var interrupted = false

    /// The name messages give the input: `standard input`.
    public static let standardInputName = "standard input"
    /// The most rows a device may have by default: 4,000,000 (about 400 MB while it runs).
    public static let defaultMaximumDeviceRows = 4_000_000
    /// Memory a streamed device takes a row while it runs, in bytes, for messages: its fixes as read and
    /// as the engine's track, with the arrays' growth. Measured: peak resident memory 79 MB over the empty
    /// table's for a device of 1,000,000 rows, 197 MB for 2,000,000 (samples are not held).
    public static let bytesPerDeviceRow = 100

    /// Reads standard input as a fix table in `format`, its columns named by `columns`; a device of more
    /// than `maximumDeviceRows` rows is an error at its first row past them. While it waits for input,
    /// `isCancelled` is asked every `ChunkedFile.wakeInterval`: once true, the stream ends (`interrupted`).
    public init(
        standardInputAs format: FixTableFormat, columns: FixTableColumns = FixTableColumns(),
        maximumDeviceRows: Int = defaultMaximumDeviceRows,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        self.init(
            file: ChunkedFile(descriptor: .standardInput, name: Self.standardInputName, isCancelled: isCancelled),
            format: format, columns: columns, maximumDeviceRows: maximumDeviceRows)
    }

    /// Reads the file at `path` (its format from its extension unless given).
    public init(
        path: String, format: FixTableFormat? = nil, columns: FixTableColumns = FixTableColumns(),
        maximumDeviceRows: Int = defaultMaximumDeviceRows
    ) throws(FixTableError) {
        let format = try FixTableFormat.of(path, given: format)
        self.init(file: try ChunkedFile(path: path), format: format, columns: columns, maximumDeviceRows: maximumDeviceRows)
    }

    private init(file: consuming ChunkedFile, format: FixTableFormat, columns: FixTableColumns, maximumDeviceRows: Int) {
        let name = file.path
        self.file = file
        builder = FixTableBuilder(path: name, names: columns, streaming: true, maximumDeviceRows: maximumDeviceRows)
        switch format {
        case .csv: rows = .csv(CSVFixes(path: name, names: columns))
        case .jsonLines: rows = .jsonLines(JSONLineFixes(path: name, names: columns))
        }
    }

    /// The next device, once its rows have ended; nil after the last, or once interrupted. The first bad
    /// row throws, naming its line and column; a device that comes back after another's rows, or whose
    /// time goes back, throws naming both lines.
    public mutating func next() throws(FixTableError) -> StreamedDevice? {
        if let pending {
            self.pending = nil
            return try end(pending)
        }
        guard !ended else { return nil }
        let more: Bool
        do {
            switch rows {
            case var .csv(reader):
                more = try reader.read(&file, into: &builder)
                rows = .csv(reader)
            case var .jsonLines(reader):
                more = try reader.read(&file, into: &builder)
                rows = .jsonLines(reader)
            }
        } catch {
            // A bad row of a new device: the device before it had ended, and comes first.
            if let device = builder.completed {
                builder.completed = nil
                pending = error
                return device
            }
            return try end(error)
        }
        if more, let device = builder.completed {
            builder.completed = nil
            return device
        }
        ended = true
        return builder.finishStream()
    }

    /// Ends the stream at `error`: thrown, or (an interruption) nil.
    private mutating func end(_ error: FixTableError) throws(FixTableError) -> StreamedDevice? {
        ended = true
        guard error.isInterruption else { throw error }
        interrupted = true
        return nil
    }

    /// The input's name in messages: its path, or `standard input`.
    public var name: String { file.path }
    /// Rows read so far (a header not counted).
    public var rowsRead: Int { builder.rowsRead }
    /// Fixes dropped so far (SEMANTICS §1: a coordinate out of range, an equal time).
    public var dropped: Int { builder.droppedFixes }
    /// Bytes of the input read so far.
    public var bytesRead: Int { file.consumedBefore }

    /// Warnings about the whole table read so far, one each (`FixTable.tableWarnings`): ask at its end.
    public var tableWarnings: [String] { builder.tableWarnings }

    /// The warnings kept since the last call (the first `FixTable.keptWarnings` of the whole table).
    public mutating func takeWarnings() -> [FixTableWarning] { builder.takeWarnings() }
}
