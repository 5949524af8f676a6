import FileSystem
import Geodesy
import Geofencing

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
/// `ObservedLog+Reading.swift`), checked against a scenario (`ObservedLog+Checks.swift`).
public struct ObservedLog: Sendable {
    public var events: [ObservedEvent]
    /// The files read, in order.
    public var files: [String]
    /// Rows of kinds the fit does not use (visit, monitor-*), skipped.
    public var skipped: Int

    public init(events: [ObservedEvent], files: [String], skipped: Int = 0) {
        self.events = events
        self.files = files
        self.skipped = skipped
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
