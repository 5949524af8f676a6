import FileSystem
import Geodesy
import Time

/// The fixes of many devices read from one fix table (SEMANTICS §1): a CSV or JSON Lines file with the
/// columns `device`, `time`, `lat`, `lon` and optionally `accuracy`. Each device's rows, in file order,
/// are one segment of its track; rows of different devices may interleave in any way.
///
/// Held compactly: the fixes of all devices in one array, grouped by device in order of first
/// appearance (rows of one device keep their file order), 40 bytes a fix; each device id is stored once.
public struct FixTable: Hashable, Sendable {
    /// The file, as given.
    public var path: String
    /// Device ids in order of first appearance.
    public var devices: [String]
    /// Every kept fix, device by device (`ranges[i]` are device i's).
    public var fixes: [TableFix]
    /// `fixes` of device i.
    public var ranges: [Range<Int>]
    /// Rows read (the header not counted).
    public var rows: Int
    /// Fixes dropped, each with its reason (§1: a time earlier than the last kept fix's, an equal time,
    /// a coordinate out of range); the first `FixTable.keptWarnings` are kept with their lines.
    public var dropped: Int
    public var warnings: [FixTableWarning]
    /// Warnings about the whole table, one each: how times without a zone were read, a lat column that
    /// seems to hold longitudes, the rows skipped for a problem (`FixTableColumns.skipInvalid`).
    public var tableWarnings: [String] = []
    /// Rows skipped for a problem (`FixTableColumns.skipInvalid`: `--skip-invalid`, `skip: invalid`).
    public var skippedRows = 0

    /// How many warnings keep their line and sentence; the rest are counted in `dropped`.
    public static let keptWarnings = 100

    /// The fixes of device `index`, in file order.
    public func fixes(ofDevice index: Int) -> ArraySlice<TableFix> { fixes[ranges[index]] }
}

/// One fix of a fix table: time, position and accuracy, and the line it came from. 40 bytes.
public struct TableFix: Hashable, Sendable, BitwiseCopyable {
    public var time: Timestamp
    public var latitude: Degrees
    public var longitude: Degrees
    /// Metres, ≥ 0; nil when the row has none.
    public var accuracy: Meters? {
        get { storedAccuracy == -.infinity ? nil : storedAccuracy }
        set { storedAccuracy = newValue ?? -.infinity }
    }
    /// The 1-based line of the row in its file (where the row starts, for CSV).
    public var line: Int
    /// `accuracy`, or -∞ for none (an optional would add 8 bytes to every fix of a fleet).
    private var storedAccuracy: Meters

    public init(time: Timestamp, latitude: Degrees, longitude: Degrees, accuracy: Meters? = nil, line: Int) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.storedAccuracy = accuracy ?? -.infinity
        self.line = line
    }
}

/// A fix that was read but not kept, and why: `fixes.csv:17: the fix of "van-3" at … is earlier than …`.
public struct FixTableWarning: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
}

/// Why a fix table could not be read: the file, the line and column (1-based; 0 when unknown), and a
/// sentence. `description`: `fixes.csv:3:17: "lat" is "north", which is not a number`. A read finds
/// every bad row before it stops: the first problem carries the next ones (`otherProblems`), and `lines`
/// writes them all, one a line.
public struct FixTableError: PlacedError, Hashable, Sendable {
    /// The file, line and column (1-based; 0 when unknown).
    public var place: SourcePlace
    public var message: String
    /// Not a bad table: the read was stopped while it waited for input (`FixTableStream.interrupted`).
    public var isInterruption = false
    /// The problems of the table's other rows, in file order after this one: with this one, the first
    /// `ProblemList.shown` of them (`RowProblems`).
    public var otherProblems: [FixTableError] = []
    /// Every problem of the read, this one and `otherProblems` among them (1: this one alone).
    public var problemCount = 1
    /// For several problems, what skips their rows (`--skip-invalid`, `skip: invalid`).
    public var skipAdvice = ""
    /// A problem no skipping goes past (a table's device too many): the read stops at it.
    var endsRead = false

    /// Each problem one a line (`ProblemList`), then, for several, how many there are in the file and
    /// what skips their rows: what a command prints, each line after `error:`.
    public var lines: [String] {
        guard problemCount > 1 else { return [description] }
        let file = place.file
        var lines = ProblemList.lines(
            [description] + otherProblems.map(\.description), total: problemCount, more: " in \(file); \(skipAdvice)")
        if problemCount <= ProblemList.shown { lines.append("\(problemCount) problems in \(file); \(skipAdvice)") }
        return lines
    }

    public init(file: String, line: Int, column: Int, message: String) {
        place = SourcePlace(file: file, line: line, column: column)
        self.message = message
    }

    /// The read of `file` stopped by its `isCancelled` while it waited for input.
    static func interrupted(_ file: String) -> FixTableError {
        var error = FixTableError(file: file, line: 0, column: 0, message: "interrupted while waiting for input")
        error.isInterruption = true
        return error
    }
}

/// The file's format: RFC 4180 CSV with a header row, or JSON Lines.
public enum FixTableFormat: String, Hashable, Sendable, CaseIterable {
    case csv
    case jsonLines = "jsonl"

    /// `given`, else the format the extension of `path` names; an error naming the file otherwise.
    static func of(_ path: String, given: FixTableFormat?) throws(FixTableError) -> FixTableFormat {
        if ParquetFile.isParquet(path: path) {
            throw FixTableError(file: path, line: 0, column: 0, message: ParquetFile.advice(for: path))
        }
        guard let format = given ?? FixTableFormat(extensionOf: path) else {
            throw FixTableError(
                file: path, line: 0, column: 0,
                message:
                    "cannot tell the fix table's format from its name; give format: csv or format: jsonl (or name it .csv, .jsonl or .ndjson)"
            )
        }
        return format
    }

    /// By extension: `.csv`; `.jsonl` or `.ndjson`. Nil for anything else.
    public init?(extensionOf path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "csv": self = .csv
        case "jsonl", "ndjson": self = .jsonLines
        default: return nil
        }
    }
}
