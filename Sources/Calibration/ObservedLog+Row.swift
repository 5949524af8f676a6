import FixTables
import Foundation
import Geodesy
import Geofencing
import TextEscaping
import Time

extension ObservedLog {
    /// One row's cells (keyed by the file's column names), made an event, skipped (a kind the fit does
    /// not use), or refused: its first problem is added to `problems` with its place. Columns are found by
    /// the names `options.columns` maps; times are read by `FixTimeReader` (ISO 8601, or numbers of the
    /// time unit; a time without a zone is refused unless a zone is given); kinds are read whatever their
    /// case (`ENTER`). O(cells).
    static func add(_ cells: [String: Cell], file: String, line: Int, into log: inout ObservedLog, _ reading: inout Reading)
    {
        do throws(ObservedLogError) {
            if let event = try event(cells, file: file, line: line, columns: log.options.columns, &reading) {
                log.events.append(event)
            } else {
                log.skipped += 1
            }
        } catch {
            log.problems.append(error)
        }
    }

    /// The row's event, nil for a kind the fit skips, or its first problem.
    static func event(
        _ cells: [String: Cell], file: String, line: Int, columns names: FixTableColumns, _ reading: inout Reading
    ) throws(ObservedLogError) -> ObservedEvent? {
        func fail(_ column: Int, _ message: String) -> ObservedLogError {
            ObservedLogError(file: file, line: line, column: column, message: message)
        }
        func required(_ key: String) throws(ObservedLogError) -> (String, Int) {
            guard let cell = cells[key], let text = cell.text else {
                let mapped = [names.device, names.region, names.kind, names.time]
                throw fail(
                    cells[key]?.column ?? 1,
                    "the row has no \"\(TerminalText.visible(key))\"; a field log's row needs \(mapped.joined(separator: ", ")) "
                        + "(name yours with --columns \(FixTableColumns.Values.fieldLog.example))")
            }
            return (text, cell.column)
        }
        func instant(_ key: String, _ text: String, _ column: Int) throws(ObservedLogError) -> Timestamp {
            var text = text
            let zoneless = reading.times.zonelessTimes
            let read = text.withUTF8 { reading.times.instant($0) }
            guard let read else {
                let shown = TerminalText.excerpt(text)
                let problem = text.withUTF8 { reading.times.problem($0, named: key, shown: shown, columns: names) }
                throw fail(column, problem + " (write 2026-10-05T14:03:10.250Z)")
            }
            if reading.times.zonelessTimes > zoneless && names.localZone == nil {
                throw fail(
                    column,
                    "\"\(key)\" has no zone: \(TerminalText.excerpt(text)); end it with Z or an offset such as +02:00, "
                        + "or give --timezone NAME (the zone the log's times were written in)")
            }
            return read
        }
        let (kindName, kindColumn) = try required(names.kind)
        let kindText = kindName.trimmingCharacters(in: .whitespaces).lowercased()
        guard let kind = GeofenceEvent.Kind(name: kindText), readKinds.contains(kind) || skippedKinds.contains(kind) else {
            var message =
                "no kind \(TerminalText.excerpt(kindName)); a field log's kinds are enter, exit and dwell, in any case "
                + "(perimeter's visit and monitor-start, monitor-stop, monitor-failed rows are skipped)"
            if let guess = Suggestion.closest(to: kindText, in: (readKinds + skippedKinds).map(\.description)) {
                message += "; did you mean \"\(guess)\"?"
            }
            throw fail(kindColumn, message)
        }
        guard readKinds.contains(kind) else { return nil }
        var columns = ObservedEvent.Columns()
        let (device, deviceColumn) = try required(names.device)
        let (region, regionColumn) = try required(names.region)
        (columns.device, columns.region, columns.decidedAt) = (deviceColumn, regionColumn, 0)
        let (timeText, timeColumn) = try required(names.time)
        let time = try instant(names.time, timeText, timeColumn)
        var detectedAt: Timestamp?
        if let cell = cells[names.detectedAt], let text = cell.text {
            let decided = try instant(names.detectedAt, text, cell.column)
            guard decided <= time else {
                throw fail(
                    cell.column,
                    "\(names.detectedAt) (\(decided)) is after \(names.time) (\(time)): the app cannot hear an event before the phone decides it"
                )
            }
            detectedAt = decided
            columns.decidedAt = cell.column
        }
        if columns.decidedAt == 0 { columns.decidedAt = timeColumn }
        func number(_ keys: [String], _ what: String, in range: ClosedRange<Double>) throws(ObservedLogError) -> Double? {
            guard let key = keys.first(where: { cells[$0]?.text != nil }), let cell = cells[key] else { return nil }
            guard let value = cell.number ?? cell.text.flatMap(names.number), range.contains(value) else {
                throw fail(cell.column, "\"\(key)\" is not \(what): \(TerminalText.excerpt(cell.text ?? ""))")
            }
            return value
        }
        let latitudeKeys = names.lat == "lat" ? ["lat", "latitude"] : [names.lat]
        let longitudeKeys = names.lon == "lon" ? ["lon", "lng", "longitude"] : [names.lon]
        let latitude = try number(latitudeKeys, "a latitude in degrees (-90 to 90)", in: -90...90)
        let longitude = try number(longitudeKeys, "a longitude in degrees (-180 to 180)", in: -180...180)
        let accuracy = try number(
            [names.accuracy], "an accuracy in metres (0 or more)", in: 0...Double.greatestFiniteMagnitude)
        let known = Set(
            [names.device, names.region, names.kind, names.time, names.detectedAt, names.accuracy] + latitudeKeys
                + longitudeKeys)
        var extra: [String: String] = [:]
        for (key, cell) in cells where !known.contains(key) && !simulatorKeys.contains(key) {
            if let text = cell.text { extra[key] = text }
        }
        let coordinate = latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } }
        var event = ObservedEvent(
            device: device, region: region, kind: kind, time: time, detectedAt: detectedAt,
            coordinate: coordinate, accuracy: accuracy, extra: extra, file: file, line: line)
        event.columns = columns
        return event
    }
}
