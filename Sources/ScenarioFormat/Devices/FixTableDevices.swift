import Documents
import FileSystem
import FixTables
import Geodesy
import Geofencing
import Parallel
import ReadableText
import Time

extension ScenarioLoader {
    /// The keys of a fix-table entry of `devices:` (SEMANTICS §1, revision 2).
    static let fixTableKeys = [
        "fixes", "columns", "format", "offset", "accuracy", "timeUnit", "delimiter", "decimal", "recorded", "skip",
    ]

    /// One `devices[i]` entry `{fixes: PATH, columns, format, offset, accuracy, timeUnit, delimiter}`: the
    /// devices of a fix table, in order of first appearance, each with its rows as one segment (times
    /// shifted by `offset`), its fixes' own accuracies, and the entry's `accuracy` for the others. Numeric
    /// times are in `timeUnit` (s, ms or us); ISO times without a zone are read in `localZone` (the
    /// scenario's `timezone:`), else as UTC, with one warning saying so. Dropped rows become warnings; the
    /// table read is added to `tables`. Every bad row's problem is an error of its own (the first
    /// `ProblemList.shown`, then their count); with `skip: invalid` (or the loader's `inputs.skipsInvalidRows`,
    /// `--skip-invalid`) the bad rows are skipped and counted in a warning.
    func fixTableDevices(
        _ c: PlacedNode, diagnostics: ProblemLog, localZone: LocalTimeZone? = nil,
        tables: inout [ReadFixTable], recordedByDefault: Bool = false
    ) -> [(Device, id: PlacedNode, pace: PlacedNode?)] {
        guard
            let fields = c.mapping(
                "a fix table: {fixes: PATH, columns, format, offset, accuracy, timeUnit, delimiter, recorded, skip}",
                allowed: Self.fixTableKeys),
            let pathCursor = fields.required("fixes", "the path of a CSV or JSON Lines fix table, relative to the scenario"),
            let path = pathCursor.text("the path of a CSV or JSON Lines fix table, relative to the scenario")
        else { return [] }
        let offset = fields["offset"].map { $0.duration(.any) } ?? .zero
        let accuracy = fields["accuracy"]?.distance(.nonNegative)
        let recorded = fields["recorded"].map { $0.boolean(Self.recordedWhat) ?? false } ?? recordedByDefault
        var format: FixTableFormat?
        if let node = fields["format"] { format = node.choice(FixTableFormat.self) }
        var columns = FixTableColumns()
        if let node = fields["columns"],
            let mapped = node.mapping(
                "a mapping of column names {device, time, lat, lon, accuracy}",
                allowed: ["device", "time", "lat", "lon", "accuracy"])
        {
            func name(_ key: String, _ into: inout String) {
                if let text = mapped[key]?.text("the name of the column that holds \(key)") { into = text }
            }
            name("device", &columns.device)
            name("time", &columns.time)
            name("lat", &columns.lat)
            name("lon", &columns.lon)
            name("accuracy", &columns.accuracy)
        }
        if let node = fields["timeUnit"], let unit = node.choice(FixTimeUnit.self) { columns.timeUnit = unit }
        /// The text at `key` read by `parse`; an error at the key, saying `what` it must be, when it reads nil.
        func named<T>(_ key: String, _ what: String, _ parse: (String) -> T?) -> T? {
            guard let node = fields[key], let text = node.text(what) else { return nil }
            guard let value = parse(text) else {
                node.expected(what)
                return nil
            }
            return value
        }
        if let delimiter = named("delimiter", "a CSV delimiter: \",\", \";\", \"|\" or tab", FixTableColumns.delimiter) {
            columns.delimiter = delimiter
        }
        if let comma = named(
            "decimal", "the decimal mark of the table's numbers: \".\" or \",\"", FixTableColumns.decimalComma)
        {
            columns.decimalComma = comma
        }
        columns.localZone = localZone
        if let skip = fields["skip"] {
            guard skip.scalarText == "invalid" else {
                skip.expected("invalid (skip: invalid leaves out the rows that have a problem, with a warning)")
                return []
            }
            columns.skipInvalid = true
        }
        columns.skipInvalid = columns.skipInvalid || inputs.skipsInvalidRows
        let resolved = FileNames.resolve(path, besideFile: c.file)
        if let refusal = diagnostics.refusal(reading: path, resolved: resolved, naming: c.file) {
            pathCursor.fail("cannot read the fix table: \(refusal)")
            return []
        }
        diagnostics.reads(ScenarioInput(kind: .table, written: path, resolved: resolved))
        guard let offset else { return [] }
        if ParquetFile.isParquet(path: resolved) {
            pathCursor.fail("\(resolved): \(ParquetFile.advice(for: path))")
            return []
        }
        if format == nil && FixTableFormat(extensionOf: resolved) == nil {
            pathCursor.fail("cannot tell the format of \(resolved) from its name; add format: csv or format: jsonl")
            return []
        }
        let table: FixTable
        do {
            table = try FixTableReader(path: resolved, format: format, columns: columns, pieces: fixTablePieces).read()
        } catch {
            // Each problem of the table's rows an error of its own, then their count and what skips them.
            let lines = error.lines
            for (number, line) in lines.enumerated() {
                pathCursor.fail(number < error.otherProblems.count + 1 ? "cannot read the fix table: \(line)" : line)
            }
            return []
        }
        let dropped = RepeatedWarning(what: "fix-table rows dropped", file: resolved, files: "fix tables")
        for warning in table.warnings { diagnostics.warning(warning.description, repeated: dropped) }
        if table.dropped > table.warnings.count {
            diagnostics.warning("\(resolved): \(table.dropped - table.warnings.count) more fixes dropped")
        }
        for warning in table.tableWarnings { diagnostics.warning(warning) }
        tables.append(ReadFixTable(file: resolved, columns: columns, devices: Set(table.devices)))
        // Each device's fixes made on all cores (a fleet's are tens of megabytes, their pages new);
        // the first device whose time overflows, in table order, is the one reported.
        let tracks = concurrentMap(table.devices.count, threads: threads) {
            [table] index -> (fixes: [Fix], overflow: TableFix?) in
            table.fixes.withUnsafeBufferPointer { all in
                let own = UnsafeBufferPointer(rebasing: all[table.ranges[index]])
                var overflow: TableFix?
                let fixes = [Fix](unsafeUninitializedCapacity: own.count) { buffer, made in
                    for fix in own {
                        guard let time = fix.time.adding(offset) else {
                            overflow = fix
                            return
                        }
                        let coordinate = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
                        buffer.initializeElement(at: made, to: Fix(coordinate, at: time, accuracy: fix.accuracy))
                        made += 1
                    }
                }
                return overflow.map { ([], $0) } ?? (fixes, nil)
            }
        }
        var devices: [(Device, id: PlacedNode, pace: PlacedNode?)] = []
        for (id, track) in zip(table.devices, tracks) {
            if let fix = track.overflow {
                (fields["offset"] ?? pathCursor).fail(
                    "\(resolved):\(fix.line): the fix's time \(fix.time) plus the offset of \(offset) s is outside \(Timestamp.writableRangeText), the times an event log can show"
                )
                return []
            }
            devices.append(
                (
                    Device(
                        id: id, track: .timed(track.fixes.isEmpty ? [] : [track.fixes]), accuracy: accuracy,
                        recorded: recorded), pathCursor,
                    nil
                ))
        }
        return devices
    }
}

/// A fix table a scenario read: its file, how its columns were mapped, and its devices' ids.
struct ReadFixTable {
    var file: String
    var columns: FixTableColumns
    var devices: Set<String>

    /// The warning for a table whose fixes are at least `distance` from `region` and would be near it
    /// with lat and lon the other way round: about the columns, with the mapping that swaps them.
    func swappedColumnsWarning(region: String, distance: Meters) -> String {
        "\(file): the fixes are at least \(Readable.distance(distance)) from region \"\(region)\", and would be near it "
            + "with latitude and longitude the other way round: are the columns \"\(columns.lat)\" and \"\(columns.lon)\" "
            + "swapped? If so, map them the other way: columns: {lat: \(columns.lon), lon: \(columns.lat)}"
    }
}
