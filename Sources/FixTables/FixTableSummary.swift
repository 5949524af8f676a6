import ReadableText
import TextEscaping
import Time

/// What a fix table holds, for `perimeter inspect`: devices, rows, kept and dropped fixes, the time span
/// of all and of each device. O(fixes).
public struct FixTableSummary: Sendable {
    public struct Device: Sendable {
        public var id: String
        public var fixes: Int
        public var start: Timestamp?
        public var end: Timestamp?
    }

    public var file: String
    public var format: FixTableFormat
    public var rows: Int
    public var fixes: Int
    public var dropped: Int
    /// Rows skipped for a problem (`FixTable.skippedRows`).
    public var skipped: Int
    public var start: Timestamp?
    public var end: Timestamp?
    public var devices: [Device]
    public var warnings: [FixTableWarning]

    public init(_ table: FixTable, format: FixTableFormat) {
        file = table.path
        self.format = format
        rows = table.rows
        fixes = table.fixes.count
        dropped = table.dropped
        skipped = table.skippedRows
        warnings = table.warnings
        devices = table.devices.enumerated().map { index, id in
            let own = table.fixes(ofDevice: index)
            return Device(id: id, fixes: own.count, start: own.first?.time, end: own.last?.time)
        }
        start = devices.compactMap(\.start).min()
        end = devices.compactMap(\.end).max()
    }

    /// A few lines for a person; at most `listed` devices and dropped fixes are named.
    public func text(listed: Int = 10) -> String {
        var lines = [file]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 10 - label.count)) + value)
        }
        add("format", format == .csv ? "fix table, CSV" : "fix table, JSON Lines")
        add("devices", "\(devices.count)")
        add("rows", "\(rows), \(fixes) fixes kept" + (skipped == 0 ? "" : ", \(skipped) skipped for a problem"))
        if let start, let end { add("span", "\(start.iso8601) – \(end.iso8601) (\((end - start).readable))") }
        for device in devices.prefix(listed) {
            let span = device.start.flatMap { s in device.end.map { " \(s.iso8601) – \($0.iso8601)" } } ?? ""
            lines.append(
                "    \(TerminalText.visible(device.id)): \(device.fixes) fix\(device.fixes == 1 ? "" : "es")\(span)")
        }
        if devices.count > listed { lines.append("    … and \(devices.count - listed) more") }
        add("dropped", dropped == 0 ? "none" : "\(dropped)")
        for warning in warnings.prefix(listed) { lines.append("    line \(warning.line): \(warning.message)") }
        if dropped > listed { lines.append("    … and \(dropped - min(listed, warnings.count)) more") }
        return lines.joined(separator: "\n")
    }

    /// One JSON object: `file`, `format`, `rows`, `fixes`, `dropped`, `skipped`, `start`, `end`, and `devices`, each
    /// `{"device", "fixes", "start", "end"}`; times in ISO 8601 UTC.
    public var json: String {
        func time(_ t: Timestamp?) -> String { JSONText.string(t?.iso8601) }
        let list = devices.map {
            JSONText.object([
                "device": JSONText.string($0.id), "fixes": JSONText.integer($0.fixes), "start": time($0.start),
                "end": time($0.end),
            ])
        }
        return JSONText.object([
            "file": JSONText.string(file), "format": JSONText.string(format.rawValue), "rows": JSONText.integer(rows),
            "fixes": JSONText.integer(fixes), "dropped": JSONText.integer(dropped),
            "skipped": JSONText.integer(skipped), "start": time(start), "end": time(end),
            "devices": JSONText.array(list),
        ])
    }
}
