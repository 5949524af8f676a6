import TextEscaping

/// The CSV side of `FixTableReader`: RFC 4180 records (fields separated by commas, optionally in double
/// quotes with `""` for a quote, records ended by CRLF or LF), the first one a header naming the columns.
/// O(bytes); the only copies are of quoted fields that hold a `""`.
struct CSVFixes {
    let path: String
    /// The mapping (held by reference: see `FixTableColumns.Box`).
    var names: FixTableColumns { mapping.columns }
    private let mapping: FixTableColumns.Box
    /// The delimiter, and it in every byte of a word when `skipPlainBytes` must look for it (it is `-`
    /// or above: `;`, `|`), else 0.
    let delimiter: UInt8
    let delimiterLanes: UInt64
    /// Column positions of device, time, lat, lon, accuracy (-1: absent).
    private(set) var positions = [Int](repeating: -1, count: 5)
    /// The record's fields (memory reused from record to record; a copy of this reader makes its own).
    private var fields = CSVFields()
    private typealias Field = CSVFields.Field
    /// The unescaped bytes of this row's quoted fields that held a `""`, and where each is.
    private var scratch: [UInt8] = []
    private var unescaped = [Range<Int>?](repeating: nil, count: 5)
    /// Whether a field of the record being read holds a `""` (else `scratch` and `unescaped` are unused).
    private var recordHasEscapes = false
    /// The last field the header names for device, time, lat and lon: a row with more fields has them all.
    private var lastRequired = 0
    /// The header's fields: a row may have no more.
    private(set) var headerFields = 0
    /// The fields up to the last one read (device, time, lat, lon or accuracy): those a plain record places.
    private(set) var keptFields = 0
    /// The line the unread bytes start at (1-based).
    var line = 1
    private var sawHeader = false
    /// The longest record read, in bytes with its line end; past `FixTableReader.maximumRowLength` when
    /// one was refused for its length.
    var longestRecord = 0

    init(path: String, names: FixTableColumns) {
        self.path = path
        mapping = FixTableColumns.Box(names)
        delimiter = names.delimiter
        delimiterLanes = names.delimiter >= UInt8(ascii: "-") ? UInt64(names.delimiter) &* 0x0101_0101_0101_0101 : 0
    }

    private func fail(_ line: Int, _ column: Int, _ message: String) -> FixTableError {
        FixTableError(file: path, line: line, column: column, message: message)
    }

    /// Reads rows to the end of the file, or (streaming) until a device's rows have ended; false at the end.
    @discardableResult
    mutating func read(_ file: inout ChunkedFile, into builder: inout some FixRowSink) throws(FixTableError) -> Bool {
        if !sawHeader { try readHeader(&file) }
        // Plain rows on their fast path (`plainRecords`); each other row, read in full, tells its error.
        let plain =
            builder.takesPlainRows && !names.decimalComma && headerFields > 1 && keptFields <= Self.plainFieldLimit
        do {
            while true {
                if plain, plainRecords(&file, into: &builder) > 0 { continue }
                guard let (length, lines) = try nextRecord(&file) else { break }
                let recordLine = line
                defer {
                    file.consume(length)
                    line += lines
                    longestRecord = max(longestRecord, length)
                }
                // A blank line (one empty unquoted field) is no row.
                if fields.count == 1 && fields[0].start == fields[0].end && !fields[0].escaped { continue }
                try row(file, line: recordLine, into: &builder)
                if builder.deviceEnded { return true }
            }
        } catch {
            refusedRecord(file, into: &builder)
            throw error
        }
        return false
    }

    /// Tells `builder` of the record refused: its device field, when it was scanned before the error.
    private func refusedRecord(_ file: borrowing ChunkedFile, into builder: inout some FixRowSink) {
        let position = positions[0]
        guard position >= 0, position < fields.count else { return builder.refused(device: nil) }
        let field = fields[position]
        var id: [UInt8] = []
        file.buffer.withUnsafeBufferPointer { Self.unescape($0[field.start..<field.end], into: &id) }
        id.withUnsafeBufferPointer { builder.refused(device: RowField(bytes: $0, line: field.line, column: field.column)) }
    }

    /// Reads the header row alone: `file` is then at the first data row, and this reader (or a copy of
    /// it, `line` set to where its bytes start) reads data rows.
    mutating func readHeader(_ file: inout ChunkedFile) throws(FixTableError) {
        try file.skipByteOrderMark()
        guard let (length, lines) = try nextRecord(&file) else {
            throw fail(
                0, 0,
                "the file is empty; a CSV fix table starts with a header row naming its columns (\(names.names.prefix(4).joined(separator: ", ")) and optionally \(names.accuracy))"
            )
        }
        try header(file)
        file.consume(length)
        line += lines
        sawHeader = true
    }

    /// Finds the record at the start of the unread bytes, filling `fields`; returns its length in bytes
    /// (line end included) and the line ends in it, or nil at the end of the file.
    private mutating func nextRecord(_ file: inout ChunkedFile) throws(FixTableError) -> (Int, Int)? {
        while true {
            if let found = try scan(file) { return found }
            if file.end - file.start > FixTableReader.maximumRowLength {
                longestRecord = file.end - file.start
                throw fail(
                    line, 1, "a row longer than \(FixTableReader.maximumRowLength >> 20) MiB (is a quote never closed?)")
            }
            let more: Bool
            do {
                more = try file.refill()
            } catch {
                fields = CSVFields()  // the bytes it placed may have moved
                throw error
            }
            if !more {
                if file.end == file.start { return nil }
                if let found = try scan(file, atEnd: true) { return found }
                return nil
            }
        }
    }

    /// Scans one record from `file.start`; nil when the buffered bytes end before it does (unless `atEnd`).
    private mutating func scan(_ file: borrowing ChunkedFile, atEnd: Bool = false) throws(FixTableError) -> (Int, Int)? {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        let fields = self.fields
        fields.removeAll()
        recordHasEscapes = false
        let start = file.start, end = file.end
        let delimiter = self.delimiter, delimiterLanes = self.delimiterLanes
        return try file.buffer.withUnsafeBufferPointer {
            (b: UnsafeBufferPointer<UInt8>) throws(FixTableError) -> (Int, Int)? in
            var i = start
            var lines = 0
            var lineStart = start
            while true {
                let fieldLine = line + lines
                let column = i - lineStart + 1
                if i < end && b[i] == UInt8(ascii: "\"") {
                    // A quoted field: to the closing quote, "" standing for a quote.
                    var j = i + 1
                    var escaped = false
                    while true {
                        guard j < end else {
                            if atEnd { throw fail(fieldLine, column, "a quoted field is never closed") }
                            return nil
                        }
                        let c = b[j]
                        if c == UInt8(ascii: "\"") {
                            if j + 1 < end && b[j + 1] == UInt8(ascii: "\"") {
                                escaped = true
                                j += 2
                                continue
                            }
                            if j + 1 == end && !atEnd { return nil }  // "" may straddle the chunk
                            break
                        }
                        if c == 0 { throw fail(line + lines, j - lineStart + 1, "a NUL byte; a fix table is text") }
                        if c == UInt8(ascii: "\n") {
                            lines += 1
                            lineStart = j + 1
                        }
                        j += 1
                    }
                    fields.append((i + 1, j, fieldLine, column, escaped))
                    if escaped { recordHasEscapes = true }
                    i = j + 1
                    if i < end, b[i] != delimiter, b[i] != UInt8(ascii: "\n"), b[i] != UInt8(ascii: "\r") {
                        throw fail(line + lines, i - lineStart + 1, afterClosingQuote(b[i]))
                    }
                } else {
                    var j = i
                    while j < end {
                        j = Self.skipPlainBytes(b, from: j, to: end, delimiterLanes: delimiterLanes)
                        guard j < end else { break }
                        let c = b[j]
                        if c == delimiter || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") { break }
                        if c == UInt8(ascii: "\"") {
                            throw fail(
                                fieldLine, j - lineStart + 1,
                                "a quote inside an unquoted field; quote the whole field and double the quote")
                        }
                        if c == 0 { throw fail(fieldLine, j - lineStart + 1, "a NUL byte; a fix table is text") }
                        j += 1
                    }
                    if j == end && !atEnd { return nil }
                    fields.append((i, j, fieldLine, column, false))
                    i = j
                }
                // After a field: a delimiter, a line end, or the end of the file.
                if i >= end {
                    if !atEnd { return nil }
                    return (i - start, lines)
                }
                if b[i] == delimiter {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "\r") {
                    if i + 1 >= end && !atEnd { return nil }
                    if i + 1 < end && b[i + 1] == UInt8(ascii: "\n") { return (i + 2 - start, lines + 1) }
                    throw fail(line + lines, i - lineStart + 1, "a carriage return not followed by a line feed")
                }
                return (i + 1 - start, lines + 1)  // "\n"
            }
        }
    }

    /// Skips the bytes from `start` that cannot end or spoil an unquoted field: returns the index of the
    /// first byte below `-` (0x2D) or equal to the delimiter (`delimiterLanes`, in every byte; 0 for a
    /// delimiter below `-`), or where fewer than eight bytes are left, whichever comes first. Every byte
    /// that ends or spoils a field (`,` `\n` `\r` `"` NUL, a tab) is below `-`; a field's usual bytes
    /// (digits, letters, `-` `.` `:`, UTF-8) are not, and the caller reads the rest byte by byte. Eight
    /// bytes at a time with no branch a byte: a byte below n = 0x2D sets the top bit of
    /// (word − n·0x0101…01) & ~word in its place, and no byte before the first such one does (it borrows
    /// nothing, and a byte of n + 128 or more has its own top bit clear in ~word); a byte equal to the
    /// delimiter is a zero byte of word ^ delimiterLanes, found alike with n = 1. O(bytes / 8).
    @inline(__always)
    private static func skipPlainBytes(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
        delimiterLanes: UInt64
    ) -> Int {
        var j = start
        while end - j >= 8 {
            // C interop: the buffer holds bytes from start to end, so it has an address.
            // swift-format-ignore: NeverForceUnwrap
            let word = UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + j).loadUnaligned(as: UInt64.self))
            var below = (word &- 0x2D2D_2D2D_2D2D_2D2D) & ~word & 0x8080_8080_8080_8080
            if delimiterLanes != 0 {
                let other = word ^ delimiterLanes
                below |= (other &- 0x0101_0101_0101_0101) & ~other & 0x8080_8080_8080_8080
            }
            if below != 0 { return j + below.trailingZeroBitCount >> 3 }
            j += 8
        }
        return j
    }

    /// The error for `byte` after a quoted field's closing quote: where it is another delimiter a CSV may
    /// use (`"device";"time"`, as Excel writes it in many countries), the setting that reads it.
    private func afterClosingQuote(_ byte: UInt8) -> String {
        let message = "text after a quoted field's closing quote"
        guard let name = [",", ";", "|", "\t"].first(where: { FixTableColumns.delimiter(named: $0) == byte }) else {
            return message
        }
        let shown = name == "\t" ? "tab" : name
        return "\(message): a '\(name == "\t" ? "\\t" : name)', which seems to separate this file's fields; "
            + "for a file whose fields are separated by it give \(names.setting(.delimiter, shown))"
    }

    /// The header: which field is which column. A column named twice is refused at its second name (which
    /// of the two to read is not guessed), as JSON Lines refuses a key given twice.
    private mutating func header(_ file: borrowing ChunkedFile) throws(FixTableError) {
        let wanted = names.names
        let found = file.buffer.withUnsafeBufferPointer { b in
            fields.all.map { field in
                var bytes: [UInt8] = []
                Self.unescape(b[field.start..<field.end], into: &bytes)
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        for (index, name) in found.enumerated() {
            for (k, w) in wanted.enumerated() where w == name {
                if positions[k] >= 0 {
                    let field = fields[index]
                    throw fail(
                        field.line, field.column,
                        "the header names \"\(TerminalText.visible(w))\" twice (fields \(positions[k] + 1) and \(index + 1)); name each column once, or map the one to read \(names.columnsAdvice)"
                    )
                }
                positions[k] = index
            }
        }
        // A file that is no fix table (a secrets file) shows no more than the start of its first fields.
        let listed =
            found.prefix(12).map { TerminalText.excerpt($0) }.joined(separator: ", ")
            + (found.count > 12 ? " and \(found.count - 12) more" : "")
        for k in 0..<5 where positions[k] < 0 && (k < 4 || names.accuracyIsMapped) {
            if found.count == 1, found[0].contains(";"), delimiter != UInt8(ascii: ";") {
                throw fail(
                    1, 1,
                    "the header has no \"\(wanted[k])\" column: it is one field, \(listed), which holds ';' but no ','; for a file whose fields are separated by ';' (Excel's in many countries) give \(names.setting(.delimiter, ";"))"
                )
            }
            let mapped =
                k == 4
                ? "the \"accuracy\" column is mapped to \"\(TerminalText.visible(wanted[k]))\", which the header does not have"
                : "the header has no \"\(TerminalText.visible(wanted[k]))\" column"
            throw fail(
                1, 1, "\(mapped) (it has \(listed)); name the columns \(names.columnsAdvice) if they are called otherwise")
        }
        lastRequired = positions[0..<4].max() ?? 0  // four columns
        headerFields = found.count
        keptFields = (positions.max() ?? 0) + 1
    }

    /// One data row.
    private mutating func row(
        _ file: borrowing ChunkedFile, line recordLine: Int,
        into builder: inout some FixRowSink
    ) throws(FixTableError) {
        let fieldCount = fields.count
        /// The row's problem, kept or the row skipped (`rowProblem`: the read goes on), else thrown.
        func problem(_ line: Int, _ column: Int, _ message: String) throws(FixTableError) {
            let problem = fail(line, column, message)
            guard builder.rowProblem(problem) else { throw problem }
        }
        if fieldCount > headerFields {
            let extra = fields[headerFields]
            return try problem(
                extra.line, extra.column,
                "the row has \(fieldCount) fields, more than the header's \(headerFields); remove the extra fields or name their columns in the header"
            )
        }
        if fieldCount <= lastRequired {
            for k in 0..<4 where positions[k] >= fieldCount {
                let last = fields[fieldCount - 1]
                return try problem(
                    last.line, last.column,
                    "the row has \(fieldCount) field\(fieldCount == 1 ? "" : "s"); the header names \"\(names.names[k])\" as field \(positions[k] + 1)"
                )
            }
        }
        if recordHasEscapes {  // else `unescaped` is stale and unread
            scratch.removeAll(keepingCapacity: true)
            for k in 0..<5 {
                unescaped[k] = nil
                guard positions[k] >= 0, positions[k] < fieldCount, fields[positions[k]].escaped else { continue }
                let field = fields[positions[k]]
                let from = scratch.count
                file.buffer.withUnsafeBufferPointer { Self.unescape($0[field.start..<field.end], into: &scratch) }
                unescaped[k] = from..<scratch.count
            }
        }
        let last = fields[fieldCount - 1]
        /// The row's fields from the file's bytes `b`, or from `copied` (`scratch`) where unescaped.
        func add(_ b: UnsafeBufferPointer<UInt8>, _ copied: UnsafeBufferPointer<UInt8>) throws(FixTableError) {
            func field(_ k: Int) -> RowField? {
                let position = positions[k]
                guard position >= 0, position < fieldCount else { return nil }
                let f = fields[position]
                if recordHasEscapes, let range = unescaped[k] {
                    return RowField(bytes: UnsafeBufferPointer(rebasing: copied[range]), line: f.line, column: f.column)
                }
                let bytes = UnsafeBufferPointer(rebasing: b[f.start..<f.end])
                return RowField(bytes: bytes, line: f.line, column: f.column)
            }
            try builder.add(
                device: field(0), time: field(1), lat: field(2), lon: field(3), accuracy: field(4),
                line: recordLine, rowEnd: (last.line, last.column + (last.end - last.start)))
        }
        try file.buffer.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(FixTableError) in
            // `scratch` is read only for a record with escapes (reading it retained and released it a row).
            if recordHasEscapes {
                try scratch.withUnsafeBufferPointer { (copied: UnsafeBufferPointer<UInt8>) throws(FixTableError) in
                    try add(b, copied)
                }
            } else {
                try add(b, UnsafeBufferPointer(start: nil, count: 0))
            }
        }
    }

    /// Appends a quoted field's content with each `""` as one `"`.
    static func unescape(_ field: Slice<UnsafeBufferPointer<UInt8>>, into out: inout [UInt8]) {
        var i = field.startIndex
        while i < field.endIndex {
            out.append(field[i])
            i += field[i] == UInt8(ascii: "\"") ? 2 : 1
        }
    }
}
