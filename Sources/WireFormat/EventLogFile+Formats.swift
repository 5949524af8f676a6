import FileSystem
import Geofencing
import NumberText

extension CSVRecords {
    /// Reads a CSV event log as `csv:` writes it (`CSVRecords.header`, then one record an event): the
    /// header names the columns (wire fields in any order, each once; `time`, `device`, `region` and
    /// `kind` required; `run` too with `poolingRuns`, as a Monte Carlo batch writes it, read as an integer
    /// and dropped); an empty field is a value the event's kind does not carry, but for `lat`, `lon` and
    /// `distance`, where it is a number that is not finite (JSON's `null`), and for a text the kind
    /// carries (the empty text). Each record is then checked as
    /// a JSON Lines line is (`WireEvent(members:)`). Errors name the line and column. O(bytes).
    public static func decode(log bytes: [UInt8], poolingRuns: Bool = false) throws(WireFormatError) -> [WireEvent] {
        let start = ByteOrderMark.length(at: bytes)
        var columns: [WireField?]?
        var events: [WireEvent] = []
        try forEachRecord(in: Array(bytes[start...])) { fields throws(WireFormatError) in
            guard let header = columns else {
                columns = try Self.header(fields, poolingRuns: poolingRuns)
                return
            }
            guard fields.count == header.count else {
                throw WireFormatError(
                    line: fields[0].line,
                    reason: "a record of \(fields.count) fields, but the header names \(header.count) columns", column: 1)
            }
            var members: [(String, FlatJSONValue)] = []
            let kind = zip(header, fields).first { $0.0 == .kind }.flatMap { GeofenceEvent.Kind(name: $0.1.text) }
            for (column, field) in zip(header, fields) {
                guard let column else {
                    guard Int(field.text) != nil else {
                        throw WireFormatError(
                            line: field.line, reason: "\"run\" is \"\(field.text)\", not a run number", column: field.column)
                    }
                    continue
                }
                guard let value = try Self.value(of: field, in: column, kind: kind) else { continue }
                members.append((column.name, value))
            }
            do throws(WireFormatError) {
                events.append(try WireEvent(members: members))
            } catch {
                throw WireFormatError(line: fields[0].line, reason: error.reason, column: 1)
            }
        }
        return events
    }

    /// The header's columns: a wire field each, nil for a batch's `run`.
    private static func header(_ fields: [Field], poolingRuns: Bool) throws(WireFormatError) -> [WireField?] {
        var columns: [WireField?] = []
        var seen = Set<String>()
        for field in fields {
            guard seen.insert(field.text).inserted else {
                throw WireFormatError(
                    line: field.line, reason: "the header names the column \"\(field.text)\" twice", column: field.column)
            }
            if poolingRuns && field.text == "run" {
                columns.append(nil)
                continue
            }
            guard let wire = WireField(rawValue: field.text) else {
                throw WireFormatError(
                    line: field.line,
                    reason:
                        "\"\(field.text)\" is not a column of an event log (\(CSVRecords.columns.joined(separator: ", ")))",
                    column: field.column)
            }
            columns.append(wire)
        }
        let required = WireField.all.filter(\.isAlwaysWritten)
        if let missing = required.first(where: { !columns.contains($0) }) {
            throw WireFormatError(
                line: fields.first?.line ?? 1, reason: "the header has no \"\(missing)\" column", column: 1)
        }
        return columns
    }

    /// A field's value as a JSON Lines member would hold it, or nil when it is absent: an empty field is
    /// the empty text in a text column the event's `kind` carries (a dwell's rule may be named ""), `null`
    /// in `lat`, `lon` and `distance`, and absent anywhere else.
    private static func value(
        of field: Field, in column: WireField, kind: GeofenceEvent.Kind?
    ) throws(WireFormatError) -> FlatJSONValue? {
        guard !field.text.isEmpty else {
            if column == .lat || column == .lon || column == .distance { return .null }
            return column.type == .text && kind.map(column.isCarried(by:)) == true ? .string("") : nil
        }
        guard column.type == .number else { return .string(field.text) }
        var text = field.text
        guard let number = text.withUTF8(DecimalText.double) else {
            throw WireFormatError(
                line: field.line, reason: "\"\(column)\" is \"\(field.text)\", not a number", column: field.column)
        }
        return .number(number)
    }
}

extension JSONLines {
    /// Reads a whole log as `decode(log:)` does, each line's last member `"run":N` (a Monte Carlo batch's
    /// run, as `jsonl:` writes it) read and dropped: the batch's events as one log.
    public static func decode(logOfRuns text: String) throws(WireFormatError) -> [WireEvent] {
        var events: [WireEvent] = []
        try forEachLine(of: text) { line throws(WireFormatError) in
            var parser = FlatJSONParser(Array(line.utf8))
            var members = try parser.object()
            if let last = members.last, last.0 == "run" {
                guard case let .number(run) = last.1, run >= 0, run == run.rounded() else {
                    throw WireFormatError(reason: "\"run\" must be a run number")
                }
                members.removeLast()
            }
            events.append(try WireEvent(members: members))
        }
        return events
    }
}
