import FileSystem
import FixTables
import Foundation
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
    /// is JSON Lines), in order, as `options` says; `-` is standard input (once). Every row's problem is
    /// kept in `problems` (one a row; `checked(against:)` reports them with the scenario's); a file that
    /// cannot be read at all (unreadable, Apache Parquet, a CSV quote that never ends) is thrown at once,
    /// with the problems found before it. Exact duplicate rows are read once and blank lines skipped,
    /// each counted in a warning. O(bytes).
    public static func read(
        _ paths: [String], options: ReadOptions = ReadOptions()
    ) throws(ObservedLogErrors)
        -> ObservedLog
    {
        var log = ObservedLog(
            events: [], files: paths.map { $0 == "-" ? standardInputName : $0 }, options: options)
        var reading = Reading(columns: options.columns)
        for path in paths {
            do throws(ObservedLogError) {
                try read(path, into: &log, &reading)
            } catch {
                throw ObservedLogErrors(log.problems + [error])
            }
        }
        log.warnings += reading.warnings()
        return log
    }

    /// What a read keeps across rows and files: the time reader (its zone-less count), the rows seen
    /// (for exact duplicates) and the counts the warnings give.
    struct Reading {
        var times: FixTimeReader
        var seen: [String: (file: String, line: Int)] = [:]
        var duplicates: [(file: String, line: Int, of: Int)] = []
        var blanks: [(file: String, line: Int)] = []

        init(columns: FixTableColumns) { times = FixTimeReader(columns) }

        /// Whether the row `text` (its bytes as written, or its CSV fields joined) repeats an earlier row
        /// exactly; the first time, remembers it.
        mutating func isDuplicate(_ text: String, file: String, line: Int) -> Bool {
            if let earlier = seen[text] {
                duplicates.append((file, line, earlier.line))
                return true
            }
            seen[text] = (file, line)
            return false
        }

        /// One warning for the duplicate rows and one for the blank lines, each with the first named.
        func warnings() -> [String] {
            var warnings: [String] = []
            if let first = duplicates.first {
                let n = duplicates.count
                warnings.append(
                    "\(first.file): \(n) row\(n == 1 ? " repeats" : "s repeat") an earlier row exactly and \(n == 1 ? "was" : "were") "
                        + "read once (the first: line \(first.line) repeats line \(first.of)); an export that wrote rows twice?"
                )
            }
            if let first = blanks.first {
                let n = blanks.count
                warnings.append(
                    "\(first.file): \(n) blank line\(n == 1 ? " was" : "s were") skipped (the first: line \(first.line))")
            }
            return warnings
        }
    }

    /// One field: its text (a JSON string, a number's shortest text, nil for null or an empty CSV field),
    /// its number when JSON wrote one, and its column.
    struct Cell {
        var text: String?
        var number: Double?
        var column: Int
    }

    static func read(_ given: String, into log: inout ObservedLog, _ reading: inout Reading) throws(ObservedLogError) {
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
            lower.hasSuffix(".csv") || lower.hasSuffix(".tsv")
            ? true
            : [".jsonl", ".ndjson", ".json"].contains(where: lower.hasSuffix)
                ? false
                : body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) != UInt8(ascii: "{")
        if isCSV {
            try readCSV(body, path: path, into: &log, &reading)
        } else {
            readJSONLines(body, path: path, into: &log, &reading)
        }
    }

    static func readJSONLines(_ bytes: [UInt8], path: String, into log: inout ObservedLog, _ reading: inout Reading) {
        var number = 0
        for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            func problem(_ column: Int, _ message: String) {
                log.problems.append(ObservedLogError(file: path, line: number, column: column, message: message))
            }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                if line.startIndex < bytes.count { reading.blanks.append((path, number)) }  // not the end's

                continue
            }
            guard line.count <= maximumRowBytes else {
                problem(
                    1, "the line is \(line.count) bytes long, over the limit of \(maximumRowBytes) for a field log's row")
                continue
            }
            guard let text = String(validating: line, as: UTF8.self) else {
                problem(1, "the line is not UTF-8 text")
                continue
            }
            let members: [FlatJSONMember]
            do {
                members = try JSONLines.members(line: text)
            } catch {
                problem(
                    error.column ?? 1,
                    "the row does not parse: "
                        + error.reason.replacingOccurrences(of: "a JSON event object", with: "a flat JSON object"))
                continue
            }
            var cells: [String: Cell] = [:], repeated: FlatJSONMember?
            for member in members {
                let cell: Cell
                switch member.value {
                case let .string(s): cell = Cell(text: s, number: nil, column: member.column)
                case let .number(n): cell = Cell(text: EventFormatting.number(n), number: n, column: member.column)
                case let .bool(b): cell = Cell(text: b ? "true" : "false", number: nil, column: member.column)
                case .null: cell = Cell(text: nil, number: nil, column: member.column)
                }
                if cells.updateValue(cell, forKey: member.key) != nil, repeated == nil { repeated = member }
            }
            if let repeated {
                problem(repeated.column, "the key \"\(TerminalText.visible(repeated.key))\" appears twice")
                continue
            }
            if reading.isDuplicate(text, file: path, line: number) { continue }
            add(cells, file: path, line: number, into: &log, &reading)
        }
    }

    /// Reads a CSV log (`columns.delimiter` between fields). A quote that never ends stops the file
    /// (thrown): what follows it cannot be told apart; so does a header of one column that another
    /// delimiter would split (`--delimiter` is then named).
    static func readCSV(
        _ bytes: [UInt8], path: String, into log: inout ObservedLog, _ reading: inout Reading
    ) throws(ObservedLogError) {
        var header: [String]?
        var blanks: [Int] = []
        let delimiter = log.options.columns.delimiter
        var wrongDelimiter: String?
        do throws(WireFormatError) {
            try CSVRecords.forEachRecord(
                in: bytes, maximumRecordBytes: maximumRowBytes, delimiter: delimiter, blank: { blanks.append($0) }
            ) { (fields: [CSVRecords.Field]) throws(WireFormatError) in
                guard wrongDelimiter == nil else { return }
                guard let names = header else {
                    let names = fields.map { $0.text.trimmingCharacters(in: .whitespaces) }
                    header = names
                    if names.count == 1 {
                        let others: [(String, UInt8)] = [(";", 0x3B), ("\t", 0x09), ("|", 0x7C), (",", 0x2C)]
                        wrongDelimiter = others.first { $0.1 != delimiter && names[0].contains($0.0) }?.0
                    }
                    return
                }
                guard fields.count <= names.count else {
                    let field = fields[names.count]
                    log.problems.append(
                        ObservedLogError(
                            file: path, line: field.line, column: field.column,
                            message: "the row has \(fields.count) fields and the header \(names.count)"))
                    return
                }
                let line = fields[0].line
                if reading.isDuplicate(fields.map(\.text).joined(separator: "\u{0}"), file: path, line: line) { return }
                var cells: [String: Cell] = [:]
                for (k, field) in fields.enumerated() {
                    cells[names[k]] = Cell(text: field.text.isEmpty ? nil : field.text, number: nil, column: field.column)
                }
                add(cells, file: path, line: line, into: &log, &reading)
            }
        } catch {
            throw ObservedLogError(
                file: path, line: error.line ?? 0, column: error.column ?? 1,
                message: "the row does not parse: " + error.reason)
        }
        if let other = wrongDelimiter, let header {
            let name = other == "\t" ? "tab" : other
            throw ObservedLogError(
                file: path, line: 1, column: 1,
                message: "the header is one column, \(TerminalText.excerpt(header[0])), and its names seem "
                    + "separated by '\(name)': give --delimiter '\(name)'")
        }
        reading.blanks += blanks.map { (path, $0) }
    }
}
