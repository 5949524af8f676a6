import NumberText
import ReadableText
import Time

/// How a fix table (or a field log, `calibrate --observed`) is read: the names of the columns (CSV header
/// fields, JSON keys) that hold each value (by default the value's own name), the unit of numeric times,
/// the CSV delimiter, the zone of ISO times written without one, and where the user gives all this (so
/// that messages name the scenario's keys or the command's options).
public struct FixTableColumns: Hashable, Sendable {
    public var device = "device"
    public var time = "time"
    public var lat = "lat"
    public var lon = "lon"
    public var accuracy = "accuracy"
    /// A field log's own values (`Values.fieldLog`): the region, the event's kind, and when the phone
    /// decided it.
    public var region = "region"
    public var kind = "kind"
    public var detectedAt = "detectedAt"
    /// The unit of numeric times since 1970 (`1714554000` s, `1714554000250` ms): seconds by default.
    public var timeUnit = FixTimeUnit.seconds
    /// The byte between a CSV row's fields: `,` by default, or `;`, `|`, a tab (`delimiter(named:)`).
    public var delimiter = UInt8(ascii: ",")
    /// Whether numbers are written with a decimal comma (`38,7123`, as Excel writes them in many
    /// countries) rather than a point; a field with a comma is then read with it as the point.
    public var decimalComma = false
    /// The zone ISO times written without a zone are read in; nil: read as UTC.
    public var localZone: LocalTimeZone?
    /// Where the user sets these, for the advice in messages.
    public var givenOn = FixTableOptionPlace.scenario
    /// Skip the rows that have a problem, counted in a warning (`--skip-invalid`, `skip: invalid`), rather
    /// than refuse the table with every problem listed.
    public var skipInvalid = false

    public init(
        device: String = "device", time: String = "time", lat: String = "lat", lon: String = "lon",
        accuracy: String = "accuracy"
    ) {
        self.device = device
        self.time = time
        self.lat = lat
        self.lon = lon
        self.accuracy = accuracy
    }

    /// A mapping held by reference, by the readers that are copied where they are called, at every row
    /// (a copy of the mapping's fields took 60 instructions a row).
    final class Box: Sendable {
        let columns: FixTableColumns
        init(_ columns: FixTableColumns) { self.columns = columns }
    }

    /// In the order a row is assigned: device, time, lat, lon, accuracy.
    var names: [String] { [device, time, lat, lon, accuracy] }

    /// The values a mapping names, in the order of `names`.
    public static let valueNames = ["device", "time", "lat", "lon", "accuracy"]

    /// Which values a mapping may name: a fix table's (device, time, lat, lon, accuracy), or a field
    /// log's (those and region, kind, detectedAt).
    public enum Values: Hashable, Sendable {
        case fixes, fieldLog

        /// The names `--columns` and `columns:` may map.
        public var names: [String] {
            switch self {
            case .fixes: FixTableColumns.valueNames
            case .fieldLog: ["device", "region", "kind", "time", "detectedAt", "lat", "lon", "accuracy"]
            }
        }

        /// A mapping to show in help and messages.
        public var example: String {
            switch self {
            case .fixes: "device=van_id,time=ts,lat=y,lon=x,accuracy=acc"
            case .fieldLog: "device=phone_id,region=store,kind=event,time=ts,detectedAt=decided_ts"
            }
        }

        /// The first two pairs of `example`.
        var shortExample: String { example.split(separator: ",").prefix(2).joined(separator: ",") }
    }

    /// Whether `accuracy` was mapped to a column of another name (which the header must then have).
    var accuracyIsMapped: Bool { accuracy != "accuracy" }

    /// Maps the columns `text` names, `device=van_id,time=ts,lat=y,lon=x,accuracy=acc` (the syntax of
    /// the Spark stage's `--columns`; any subset, in any order), of the `values` a table has. Returns the
    /// problem as a sentence, or nil.
    public mutating func map(_ text: String, values: Values = .fixes) -> String? {
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else {
                return "\"\(part)\" is not NAME=COLUMN; write the mapping as \(values.example)"
            }
            guard values.names.contains(pair[0]) else {
                let what = values == .fixes ? "a fix-table value" : "a field log's value"
                let names = values.names
                return
                    "\"\(pair[0])\" is not \(what); map \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "") onto your columns (\(values.shortExample))"
            }
            switch pair[0] {
            case "device": device = pair[1]
            case "time": time = pair[1]
            case "lat": lat = pair[1]
            case "lon": lon = pair[1]
            case "accuracy": accuracy = pair[1]
            case "region": region = pair[1]
            case "kind": kind = pair[1]
            default: detectedAt = pair[1]
            }
        }
        return nil
    }

    /// The delimiters a CSV fix table may use: `,` `;` `|` and a tab (given as itself, `\t` or `tab`).
    public static func delimiter(named text: String) -> UInt8? {
        switch text {
        case ",": UInt8(ascii: ",")
        case ";": UInt8(ascii: ";")
        case "|": UInt8(ascii: "|")
        case "\t", "\\t", "tab": UInt8(ascii: "\t")
        default: nil
        }
    }

    /// The decimal marks a fix table may use: `.` (the default) or `,`; true for a comma, nil for others.
    public static func decimalComma(named text: String) -> Bool? {
        switch text {
        case ".": false
        case ",": true
        default: nil
        }
    }

    /// The number `text` writes, as this table writes numbers: its one comma read as the point when the
    /// table writes decimal commas (`decimalComma`). O(length).
    public func number(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes in
            guard decimalComma, let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else {
                return DecimalText.double(bytes)
            }
            return Self.double(bytes, pointAt: comma)
        }
    }

    /// `bytes` as decimal text with the byte at `comma` read as the point, copied on the stack (64 bytes
    /// at most: a longer field is no number of a fix table). O(bytes).
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, pointAt comma: Int) -> Double? {
        guard bytes.count <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { copy in
            _ = copy.initialize(from: bytes)
            copy[comma] = UInt8(ascii: ".")
            return DecimalText.double(UnsafeBufferPointer(copy))
        }
    }

    /// Where a message sends the user to name the columns: `in the scenario's columns: mapping`, or
    /// `with --columns device=NAME,…`.
    var columnsAdvice: String {
        switch givenOn {
        case .scenario: "in the scenario's columns: mapping"
        case .commandLine: "with --columns device=NAME,time=NAME,lat=NAME,lon=NAME"
        }
    }

    /// What a message tells the user to write to set `option` to `value`: `timeUnit: ms` in a scenario's
    /// fix-table entry, `--time-unit ms` on the command line.
    func setting(_ option: FixTableOption, _ value: String) -> String {
        switch (givenOn, option) {
        case (.scenario, .timeUnit): "timeUnit: \(value)"
        case (.scenario, .delimiter): "delimiter: \"\(value)\""
        case (.scenario, .timezone): "the scenario timezone: \(value)"
        case (.scenario, .decimal): "decimal: \"\(value)\""
        case (.commandLine, .decimal): "--decimal '\(value)'"
        case (.commandLine, .timeUnit): "--time-unit \(value)"
        case (.commandLine, .delimiter): "--delimiter '\(value)'"
        case (.commandLine, .timezone): "--input-timezone \(value)"
        }
    }

    /// What skips the rows that have a problem, as the user gives it: `--skip-invalid`, or `skip: invalid`
    /// on the scenario's fix-table entry.
    var skipSetting: String {
        switch givenOn {
        case .scenario: "skip: invalid"
        case .commandLine: "--skip-invalid"
        }
    }

    /// The advice after a table's problems: where `skipSetting` goes, and what it does.
    var skipAdvice: String {
        switch givenOn {
        case .scenario: "skip: invalid on the fix-table entry (or --skip-invalid) skips the rows that have one"
        case .commandLine: "--skip-invalid skips the rows that have one"
        }
    }

    /// The one warning of a table whose `count` ISO times had no zone, saying how they were read; nil
    /// when every time had one.
    func zonelessWarning(file: String, count: Int) -> String? {
        guard count > 0 else { return nil }
        let times = "\(Readable.grouped(Int64(count))) time\(count == 1 ? " has" : "s have") no zone"
        guard let localZone else {
            return
                "\(file): \(times) and \(count == 1 ? "was" : "were") read as UTC; write them with Z or an offset, or give \(setting(.timezone, "NAME"))"
        }
        return "\(file): \(times) and \(count == 1 ? "was" : "were") read in \(localZone.identifier)"
    }

    /// The one warning of a table with `count` rows whose lat is past ±90 while their lon is within it
    /// (a lat column that holds longitudes), saying how to map the columns; nil when there are none.
    func latitudeWarning(file: String, count: Int) -> String? {
        guard count > 0 else { return nil }
        let swapped =
            switch givenOn {
            case .scenario: "columns: {lat: \(lon), lon: \(lat)}"
            case .commandLine: "--columns lat=\(lon),lon=\(lat)"
            }
        let rows = "\(Readable.grouped(Int64(count))) row\(count == 1 ? " has" : "s have")"
        return
            "\(file): \(rows) a \"\(lat)\" past ±90 and a \"\(lon)\" within ±90 (dropped as out of range): the \"\(lat)\" column seems to hold longitudes; if \"\(lat)\" and \"\(lon)\" are swapped, map them the other way: \(swapped)"
    }
}

/// An option of how a fix table is read, for the advice in messages.
enum FixTableOption {
    case timeUnit, delimiter, timezone, decimal
}

/// Where the user says how a fix table is read: a scenario's fix-table entry, or the command line
/// (`inspect`, `stream`).
public enum FixTableOptionPlace: Hashable, Sendable {
    case scenario
    case commandLine
}

/// The unit of a fix table's numeric times, counted from 1970-01-01T00:00:00Z.
public enum FixTimeUnit: String, Hashable, Sendable, CaseIterable {
    case seconds = "s"
    case milliseconds = "ms"
    case microseconds = "us"

    /// The decimal digits between the unit and a microsecond: 6, 3 or 0.
    var microsecondDigits: Int {
        switch self {
        case .seconds: 6
        case .milliseconds: 3
        case .microseconds: 0
        }
    }

    /// `seconds`, `milliseconds`, `microseconds`.
    var name: String {
        switch self {
        case .seconds: "seconds"
        case .milliseconds: "milliseconds"
        case .microseconds: "microseconds"
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
