import FileSystem
import Geodesy
import Time

// CONTRACT (public API other modules build on). `load` is built on `GPXReader` (GPXReader.swift) and
// `TrackBuilder` (TrackBuilder.swift).

/// Which GPX element a track's points came from (SEMANTICS §1: trkpt, else rtept, else wpt).
public enum PointKind: String, Sendable, Hashable, CaseIterable {
    case trackPoint = "trkpt"
    case routePoint = "rtept"
    case waypoint = "wpt"
}

/// One point as read from the file, with where it stands in it.
public struct TrackPoint: Sendable, Hashable {
    public var coordinate: Coordinate
    /// The point's `<time>`, truncated to microseconds, in UTC; nil when it has none.
    public var time: Timestamp?
    /// The point's `<ele>`, in metres, when present and numeric.
    public var elevation: Double?
    /// Its index among the file's points of its kind, from 0 (an untimed point i plays at start + i × pace).
    public var ordinal: Int
    /// 1-based line and column of the point's start tag.
    public var line: Int
    public var column: Int

    public init(coordinate: Coordinate, time: Timestamp?, elevation: Double?, ordinal: Int, line: Int, column: Int) {
        self.coordinate = coordinate
        self.time = time
        self.elevation = elevation
        self.ordinal = ordinal
        self.line = line
        self.column = column
    }
}

/// Something dropped or doubtful in a file that still loaded, with its place.
public struct GPXWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable {
        /// lat outside [-90, 90] or lon outside [-180, 180]: the point is dropped.
        case coordinateOutOfRange = "coordinate-out-of-range"
        /// Earlier than the previous kept point: dropped.
        case timeWentBack = "time-went-back"
        /// Same time as the next point: dropped in favour of the later one.
        case duplicateTime = "duplicate-time"
    }
    public var reason: Reason
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }

    public init(reason: Reason, line: Int, message: String) {
        self.reason = reason
        self.line = line
        self.message = message
    }
}

/// A whole GPX file read as one device's track, with SEMANTICS §1 applied: the point kind chosen,
/// timing decided (all timed, or none), backward times and out-of-range coordinates dropped.
public struct GPXTrack: Sendable {
    public enum Timing: String, Sendable, Hashable { case timed, untimed }

    /// The path as given.
    public var file: String
    public var kind: PointKind
    public var timing: Timing
    /// Segments of kept points: each trkseg for trkpt; one segment for rtept or wpt. Empty trksegs are kept.
    public var segments: [[TrackPoint]]
    public var warnings: [GPXWarning]
    /// How many of its `<time>`s were written without a zone (`2024-05-01T09:00:00`): read as UTC, which a
    /// scenario's `timezone:` corrects when all of them are.
    public var zonelessTimes = 0

    public init(file: String, kind: PointKind, timing: Timing, segments: [[TrackPoint]], warnings: [GPXWarning]) {
        self.file = file
        self.kind = kind
        self.timing = timing
        self.segments = segments
        self.warnings = warnings
    }

    /// Reads and checks the file at `path` in one streaming pass, in bounded memory besides the points.
    public static func load(path: String) throws(GPXError) -> GPXTrack {
        try read(path: path)
    }
}

/// A GPX file that could not be read, with the place and a sentence a person can act on.
public struct GPXError: PlacedError, Sendable, Hashable {
    /// The file, line and column; line 0 when the problem is the file as a whole (missing, unreadable).
    public var place: SourcePlace
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        place = SourcePlace(file: file, line: line, column: column)
        self.message = message
    }
}
