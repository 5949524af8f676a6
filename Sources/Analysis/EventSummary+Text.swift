import ReadableText
import TextEscaping
import Time
import WireFormat

extension EventSummary {
    /// The columns after the keys': the counts, then the visit durations' p50, p90 and max (seconds in CSV
    /// and JSON).
    public static let valueColumns = ["enter", "exit", "dwell", "visit", "visitP50", "visitP90", "visitMax"]

    /// Whose clocks hours and days are on, for the header: `UTC`, or the zone's name.
    public var clocks: String { zone?.identifier ?? "UTC" }

    /// The table for people: a header naming `source`, what was counted, the keys and the clocks, then
    /// a row a group (ids escaped for the terminal, `TerminalText.visible`), durations for people:
    ///
    /// ```
    /// events.jsonl: 12 enter, exit, dwell and visit events by region and hour, on UTC clocks; 4 monitor events not counted
    ///
    /// region  hour                  enter  exit  dwell  visit  visit p50  visit p90  visit max
    /// cafe    2024-05-01T09:00:00Z      3     2      1      2      4 min     10 min     10 min
    /// ```
    public func readable(source: String) -> String {
        let by = keys.isEmpty ? "in one group" : "by " + keys.map(\.rawValue).joined(separator: " and ")
        let clocks = keys.contains(.hour) || keys.contains(.day) ? ", on \(clocks) clocks" : ""
        let header =
            TerminalText.visible(source) + ": \(Readable.grouped(Int64(counted))) enter, exit, dwell and visit "
            + "event\(counted == 1 ? "" : "s") " + by + clocks + "; \(Readable.grouped(Int64(notCounted))) monitor "
            + "event\(notCounted == 1 ? "" : "s") not counted"
        let names = keys.map(\.rawValue) + ["enter", "exit", "dwell", "visit", "visit p50", "visit p90", "visit max"]
        let rows = groups.map { group in
            group.key.map { TerminalText.visible($0.description) }
                + [group.enters, group.exits, group.dwells, group.visits].map { Readable.grouped(Int64($0)) }
                + [group.visitP50, group.visitP90, group.visitMax].map { $0?.readable ?? "–" }
        }
        let widths = names.indices.map { column in rows.reduce(names[column].count) { max($0, $1[column].count) } }
        func line(_ cells: [String]) -> String {
            var text = cells.enumerated().map { column, cell in
                let space = String(repeating: " ", count: widths[column] - cell.count)
                return column < keys.count ? cell + space : space + cell
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        let body = rows.isEmpty ? ["(no enter, exit, dwell or visit events)"] : rows.map(line)
        return ([header, "", line(names)] + body).joined(separator: "\n") + "\n"
    }

    /// The summary as CSV per RFC 4180: a header row (the keys, then `valueColumns`), then a row a group,
    /// CRLF line ends; ids quoted where they must be; hours and days as `GroupValue` writes them;
    /// durations in seconds as the event log writes them (`EventFormatting.seconds`), empty without visits.
    public var csv: String {
        var out: [UInt8] = []
        func row(_ fields: [String]) {
            for (index, field) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                EventFormatting.append(csvField: field, to: &out)
            }
            out.append(contentsOf: "\r\n".utf8)
        }
        row(keys.map(\.rawValue) + Self.valueColumns)
        for group in groups {
            row(
                group.key.map(\.description) + [group.enters, group.exits, group.dwells, group.visits].map(String.init)
                    + [group.visitP50, group.visitP90, group.visitMax].map { $0.flatMap(EventFormatting.seconds) ?? "" })
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The summary as one JSON object on one line (`JSONText`): `source`, the keys `by`, the `clocks`,
    /// the events `counted` and `notCounted`, and `groups`, each with its keys' values and `valueColumns`
    /// (durations in seconds, `null` without visits):
    ///
    /// ```json
    /// {"source":"events.jsonl","by":["region"],"clocks":"UTC","counted":12,"notCounted":4,"groups":[{"region":"cafe",
    /// "enter":3,"exit":2,"dwell":1,"visit":2,"visitP50":240.0,"visitP90":600.0,"visitMax":600.0}]}
    /// ```
    public func json(source: String) -> String {
        let groups = groups.map { group in
            JSONText.object(
                Array(zip(keys.map(\.rawValue), group.key.map { JSONText.string($0.description) }))
                    + Array(
                        zip(
                            Self.valueColumns, [group.enters, group.exits, group.dwells, group.visits].map(JSONText.integer))
                    )
                    + Array(
                        zip(
                            Self.valueColumns.dropFirst(4),
                            [group.visitP50, group.visitP90, group.visitMax].map(JSONText.seconds)))
            )
        }
        return JSONText.object([
            ("source", JSONText.string(source)), ("by", JSONText.array(keys.map { JSONText.string($0.rawValue) })),
            ("clocks", JSONText.string(clocks)), ("counted", JSONText.integer(counted)),
            ("notCounted", JSONText.integer(notCounted)), ("groups", JSONText.array(groups)),
        ])
    }
}
