import FileSystem
import FixTables
import Geodesy
import Geofencing
import Time

/// One event a phone reported in the field, as the field log gives it (docs/CALIBRATE.md "The field log").
public struct ObservedEvent: Hashable, Sendable {
    public var device: String
    public var region: String
    /// `enter`, `exit` or `dwell` (the kinds a field log may hold that the fit reads).
    public var kind: GeofenceEvent.Kind
    /// When the app heard it.
    public var time: Timestamp
    /// When the phone decided it, when the log says (delivery = time − detectedAt).
    public var detectedAt: Timestamp?
    /// The triggering position and its accuracy in metres, when the log gives them.
    public var coordinate: Coordinate?
    public var accuracy: Meters?
    /// Free columns (`platform`, `os`, `model`, `appState`, …), as text.
    public var extra: [String: String]
    /// Where it is written.
    public var file: String
    public var line: Int
    /// The columns of its device, region and decision time (`detectedAt`, else `time`), for messages.
    public var columns = Columns()

    public struct Columns: Hashable, Sendable {
        public var device = 1, region = 1, decidedAt = 1
        public init() {}
    }

    public init(
        device: String, region: String, kind: GeofenceEvent.Kind, time: Timestamp, detectedAt: Timestamp? = nil,
        coordinate: Coordinate? = nil, accuracy: Meters? = nil, extra: [String: String] = [:],
        file: String = "", line: Int = 0
    ) {
        self.device = device
        self.region = region
        self.kind = kind
        self.time = time
        self.detectedAt = detectedAt
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.extra = extra
        self.file = file
        self.line = line
    }

    /// When the phone decided: `detectedAt`, else `time`.
    public var decidedAt: Timestamp { detectedAt ?? time }
}

/// A field log: the events of one or more files, in the files' order (JSON Lines or CSV,
/// `ObservedLog+Reading.swift`, each row `ObservedLog+Row.swift`), checked against a scenario
/// (`ObservedLog+Checks.swift`). Its rows' problems are gathered, every one, and reported together by
/// `checked(against:)` (or skipped and counted, `ReadOptions.skipInvalid`).
public struct ObservedLog: Sendable {
    public var events: [ObservedEvent]
    /// The files read, in order.
    public var files: [String]
    /// Rows of kinds the fit does not use (visit, monitor-*), skipped.
    public var skipped: Int
    /// How the log was read.
    public var options: ReadOptions
    /// The rows refused so far, one problem a row, in the order found.
    public var problems: [ObservedLogError] = []
    /// What is said of the log as a whole (duplicate rows, blank lines, rows skipped), on standard error.
    public var warnings: [String] = []

    /// How a field log is read (its columns, time unit, delimiter, decimal mark and the zone of times without
    /// one, as `inspect`'s and `stream`'s fix tables: `FixTableColumns`), and what is done with rows that
    /// cannot be used.
    public struct ReadOptions: Sendable {
        public var columns = FixTableColumns()
        /// Skip (and count) rows with a problem rather than refuse the log.
        public var skipInvalid = false
        /// Regions whose rows are dropped (counted), such as a test fence the scenario does not draw.
        public var ignoredRegions: Set<String> = []
        /// Skip (and count) rows naming a region the scenario does not have, rather than refuse them.
        public var skipUnknownRegions = false

        public init() {}
    }

    public init(events: [ObservedEvent], files: [String], skipped: Int = 0, options: ReadOptions = ReadOptions()) {
        self.events = events
        self.files = files
        self.skipped = skipped
        self.options = options
    }
}

/// A field log that cannot be used: the file, the 1-based line and column, and a full sentence.
public struct ObservedLogError: PlacedError, Hashable, Sendable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var place: SourcePlace { SourcePlace(file: file, line: line, column: column) }
}

/// Every problem of a field log, in the log's order (never empty): the first `shown` written one a line,
/// then how many more there are.
public struct ObservedLogErrors: Error, Hashable, Sendable, CustomStringConvertible {
    public var errors: [ObservedLogError]
    /// How many problems the description writes out (`ProblemList.shown`).
    public static let shown = ProblemList.shown

    public init(_ errors: [ObservedLogError]) { self.errors = errors }

    /// The first problem (for a caller that names one place).
    public var first: ObservedLogError { errors[0] }

    public var description: String {
        var lines = ProblemList.lines(errors.lazy.map(\.description), total: errors.count)
        let rows = Set(errors.map { "\($0.file)\u{0}\($0.line)" }).count
        if errors.count > 1 || errors.first.map({ $0.line > 0 }) == true {
            lines.append(
                "\(errors.count) problem\(errors.count == 1 ? "" : "s") in \(rows) row\(rows == 1 ? "" : "s"); "
                    + "--skip-invalid skips the rows that have one and fits the rest")
        }
        return lines.joined(separator: "\n")
    }
}
