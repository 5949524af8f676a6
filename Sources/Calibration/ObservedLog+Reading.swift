import FileSystem
import Foundation
import Geodesy
import Geofencing
import TextEscaping
import WireFormat

extension ObservedLog {
    /// The kinds the fit reads (dwell is read and checked, the fit uses enter and exit).
    public static let readKinds: [GeofenceEvent.Kind] = [.enter, .exit, .dwell]
    /// The kinds perimeter emits that a field log may hold and the fit skips.
    public static let skippedKinds: [GeofenceEvent.Kind] = [.visit, .monitorStart, .monitorStop, .monitorFailed]
    /// Keys perimeter's own logs write that only a simulator knows: ignored, never used by the fit.
    public static let simulatorKeys: Set<String> = [
        "crossedAt", "distance", "rule", "duration", "arrival", "departure", "run",
    ]
    /// The longest line (JSON Lines) or record (CSV) read, in bytes: a hostile file cannot make a row of
    /// unbounded size. Field logs' rows are a few hundred bytes.
    public static let maximumRowBytes = 64 << 10

    /// The name `-` (standard input) takes in messages.
    public static let standardInputName = "standard input"

    /// Reads each file (JSON Lines for .jsonl, .ndjson, .json; CSV for .csv; else by its first byte: `{`
    /// is JSON Lines), in order; `-` is standard input (once). Apache Parquet is refused with what to do
    /// instead. O(bytes).
    public static func read(_ paths: [String]) throws(ObservedLogError) -> ObservedLog {
        var log = ObservedLog(events: [], files: paths.map { $0 == "-" ? standardInputName : $0 })
        for path in paths { try read(path, into: &log) }
        return log
    }

    /// One field: its text (a JSON string, a number's shortest text, nil for null or an empty CSV field)
    /// and its column.
    struct Cell {
        var text: String?
        var number: Double?
        var column: Int
    }

    static func read(_ given: String, into log: inout ObservedLog) throws(ObservedLogError) {
        let path = given == "-" ? standardInputName : given
        let bytes: [UInt8]
        do {
            bytes = try given == "-" ? WholeFile.readStandardInput() : WholeFile.read(path)
        } catch {
            let reason: String
            switch error {
            case let .unreadable(sentence): reason = sentence
            case let .tooLarge(size, limit): reason = "the file is \(size) bytes, over the limit of \(limit)"
            case let .system(failure): reason = failure.description
            }
            throw ObservedLogError(file: path, line: 0, column: 0, message: "the field log cannot be read: \(reason)")
        }
        if ParquetFile.starts(bytes) {
            throw ObservedLogError(
                file: path, line: 1, column: 1, message: ParquetFile.advice(for: given == "-" ? nil : given))
        }
        let lower = path.lowercased()
        let body = Array(bytes.dropFirst(ByteOrderMark.length(at: bytes)))
        let isCSV =
            lower.hasSuffix(".csv")
            ? true
            : [".jsonl", ".ndjson", ".json"].contains(where: lower.hasSuffix)
                ? false
                : body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) != UInt8(ascii: "{")
        if isCSV { try readCSV(body, path: path, into: &log) } else { try readJSONLines(body, path: path, into: &log) }
    }

    static func readJSONLines(_ bytes: [UInt8], path: String, into log: inout ObservedLog) throws(ObservedLogError) {
        var number = 0
        for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard line.count <= maximumRowBytes else {
                throw ObservedLogError(
                    file: path, line: number, column: 1,
                    message:
                        "the line is \(line.count) bytes long, over the limit of \(maximumRowBytes) for a field log's row")
            }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw ObservedLogError(file: path, line: number, column: 1, message: "the line is not UTF-8 text")
            }
            let members: [FlatJSONMember]
            do {
                members = try JSONLines.members(line: text)
            } catch {
                throw ObservedLogError(
                    file: path, line: number, column: error.column ?? 1,
                    message: "the row does not parse: "
                        + error.reason.replacingOccurrences(of: "a JSON event object", with: "a flat JSON object"))
            }
            var cells: [String: Cell] = [:]
            for member in members {
                let cell: Cell
                switch member.value {
                case let .string(s): cell = Cell(text: s, number: nil, column: member.column)
                case let .number(n): cell = Cell(text: EventFormatting.number(n), number: n, column: member.column)
                case let .bool(b): cell = Cell(text: b ? "true" : "false", number: nil, column: member.column)
                case .null: cell = Cell(text: nil, number: nil, column: member.column)
                }
                guard cells.updateValue(cell, forKey: member.key) == nil else {
                    throw ObservedLogError(
                        file: path, line: number, column: member.column,
                        message: "the key \"\(TerminalText.visible(member.key))\" appears twice")
                }
            }
            try add(cells, file: path, line: number, rowColumn: 1, into: &log)
        }
    }

    static func readCSV(_ bytes: [UInt8], path: String, into log: inout ObservedLog) throws(ObservedLogError) {
        var records: [[CSVRecords.Field]] = []
        do throws(WireFormatError) {
            try CSVRecords.forEachRecord(in: bytes, maximumRecordBytes: maximumRowBytes) {
                (fields: [CSVRecords.Field]) throws(WireFormatError) in
                records.append(fields)
            }
        } catch {
            throw ObservedLogError(
                file: path, line: error.line ?? 0, column: error.column ?? 1,
                message: "the row does not parse: " + error.reason)
        }
        guard let header = records.first else { return }
        let names = header.map { $0.text.trimmingCharacters(in: .whitespaces) }
        for fields in records.dropFirst() {
            var cells: [String: Cell] = [:]
            for (k, field) in fields.enumerated() {
                guard k < names.count else {
                    throw ObservedLogError(
                        file: path, line: field.line, column: field.column,
                        message: "the row has \(fields.count) fields and the header \(names.count)")
                }
                let text = field.text
                cells[names[k]] = Cell(text: text.isEmpty ? nil : text, number: Double(text), column: field.column)
            }
            try add(cells, file: path, line: fields[0].line, rowColumn: 1, into: &log)
        }
    }

    /// One row's cells, made an event (or skipped, for a kind the fit does not use).
    static func add(
        _ cells: [String: Cell], file: String, line: Int, rowColumn: Int,
        into log: inout ObservedLog
    ) throws(ObservedLogError) {
        func fail(_ column: Int, _ message: String) -> ObservedLogError {
            ObservedLogError(file: file, line: line, column: column, message: message)
        }
        func required(_ key: String) throws(ObservedLogError) -> (String, Int) {
            guard let cell = cells[key], let text = cell.text else {
                throw fail(
                    cells[key]?.column ?? rowColumn,
                    "the row has no \"\(key)\"; a field log's row needs device, region, kind and time")
            }
            return (text, cell.column)
        }
        func instant(_ key: String, _ text: String, _ column: Int) throws(ObservedLogError) -> Timestamp {
            guard let parsed = Timestamp.parse(iso8601: text, localZone: nil) else {
                throw fail(
                    column,
                    "\"\(key)\" is not an ISO 8601 time: \"\(TerminalText.visible(text))\" (write 2026-10-05T14:03:10.250Z)")
            }
            guard parsed.hadZone else {
                throw fail(
                    column,
                    "\"\(key)\" has no zone: \"\(TerminalText.visible(text))\"; end it with Z or an offset such as +02:00")
            }
            return parsed.instant
        }
        let (kindName, kindColumn) = try required("kind")
        guard let kind = GeofenceEvent.Kind(name: kindName), readKinds.contains(kind) || skippedKinds.contains(kind) else {
            var message =
                "no kind \"\(TerminalText.visible(kindName))\"; a field log's kinds are enter, exit and dwell "
                + "(perimeter's visit and monitor-start, monitor-stop, monitor-failed rows are skipped)"
            if let guess = Suggestion.closest(to: kindName, in: (readKinds + skippedKinds).map(\.description)) {
                message += "; did you mean \"\(guess)\"?"
            }
            throw fail(kindColumn, message)
        }
        guard readKinds.contains(kind) else { log.skipped += 1; return }
        var columns = ObservedEvent.Columns()
        let (device, deviceColumn) = try required("device")
        let (region, regionColumn) = try required("region")
        (columns.device, columns.region, columns.decidedAt) = (deviceColumn, regionColumn, 0)
        let (timeText, timeColumn) = try required("time")
        let time = try instant("time", timeText, timeColumn)
        var detectedAt: Timestamp?
        if let cell = cells["detectedAt"], let text = cell.text {
            let decided = try instant("detectedAt", text, cell.column)
            guard decided <= time else {
                throw fail(
                    cell.column,
                    "detectedAt (\(decided)) is after time (\(time)): the app cannot hear an event before the phone decides it"
                )
            }
            detectedAt = decided
            columns.decidedAt = cell.column
        }
        if columns.decidedAt == 0 { columns.decidedAt = timeColumn }
        func number(_ keys: [String], _ what: String, in range: ClosedRange<Double>) throws(ObservedLogError) -> Double? {
            guard let key = keys.first(where: { cells[$0]?.text != nil }), let cell = cells[key] else { return nil }
            guard let value = cell.number, range.contains(value) else {
                throw fail(cell.column, "\"\(key)\" is not \(what): \"\(TerminalText.visible(cell.text ?? ""))\"")
            }
            return value
        }
        let latitude = try number(["lat", "latitude"], "a latitude in degrees (-90 to 90)", in: -90...90)
        let longitude = try number(["lon", "lng", "longitude"], "a longitude in degrees (-180 to 180)", in: -180...180)
        let accuracy = try number(["accuracy"], "an accuracy in metres (0 or more)", in: 0...Double.greatestFiniteMagnitude)
        let known: Set<String> = [
            "device", "region", "kind", "time", "detectedAt", "lat", "latitude", "lon", "lng", "longitude", "accuracy",
        ]
        var extra: [String: String] = [:]
        for (key, cell) in cells where !known.contains(key) && !simulatorKeys.contains(key) {
            if let text = cell.text { extra[key] = text }
        }
        let coordinate = latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } }
        var event = ObservedEvent(
            device: device, region: region, kind: kind, time: time, detectedAt: detectedAt,
            coordinate: coordinate, accuracy: accuracy, extra: extra, file: file, line: line)
        event.columns = columns
        log.events.append(event)
    }
}
