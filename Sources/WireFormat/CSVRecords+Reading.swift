extension CSVRecords {
    /// One field of a CSV record as read: its text (quotes removed, doubled quotes made one) and where it
    /// begins (1-based line and byte column).
    public struct Field: Equatable, Sendable {
        public var text: String
        public var line: Int
        public var column: Int
    }

    /// Reads CSV per RFC 4180 as `csv:` writes it, and as spreadsheets do: fields separated by commas
    /// (or `delimiter`), records by LF or CRLF, a quoted field may hold commas, quotes (doubled) and line
    /// ends. Blank records are skipped, each told to `blank` by its line. Calls `body` with each record's
    /// fields; an unterminated quote, text after a closing quote, or a record longer than
    /// `maximumRecordBytes` is an error naming its line and column. O(bytes).
    public static func forEachRecord(
        in bytes: [UInt8], maximumRecordBytes: Int = 1 << 20, delimiter: UInt8 = UInt8(ascii: ","),
        blank: (Int) -> Void = { _ in }, _ body: ([Field]) throws(WireFormatError) -> Void
    ) throws(WireFormatError) {
        let quote = UInt8(ascii: "\""), comma = delimiter, lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var i = 0, line = 1, lineStart = 0
        var fields: [Field] = []
        var text: [UInt8] = []
        while i < bytes.count {
            // One record.
            let recordStart = i, recordLine = line
            fields.removeAll(keepingCapacity: true)
            var ended = false
            while !ended {
                if i - recordStart > maximumRecordBytes {
                    throw WireFormatError(
                        line: recordLine, reason: "a record longer than \(maximumRecordBytes) bytes", column: 1)
                }
                let fieldLine = line, fieldColumn = i - lineStart + 1
                text.removeAll(keepingCapacity: true)
                if i < bytes.count && bytes[i] == quote {
                    i += 1
                    while true {
                        guard i < bytes.count else {
                            throw WireFormatError(
                                line: fieldLine, reason: "a quoted field that never ends", column: fieldColumn)
                        }
                        if i - recordStart > maximumRecordBytes {
                            throw WireFormatError(
                                line: recordLine, reason: "a record longer than \(maximumRecordBytes) bytes", column: 1)
                        }
                        let b = bytes[i]
                        i += 1
                        if b == quote {
                            if i < bytes.count && bytes[i] == quote { text.append(quote); i += 1; continue }
                            break
                        }
                        if b == lf { line += 1; lineStart = i }
                        text.append(b)
                    }
                    if i < bytes.count && bytes[i] == cr && i + 1 < bytes.count && bytes[i + 1] == lf { i += 1 }
                    if i < bytes.count && bytes[i] != comma && bytes[i] != lf {
                        throw WireFormatError(
                            line: line, reason: "text after a quoted field's closing quote",
                            column: i - lineStart + 1)
                    }
                } else {
                    while i < bytes.count && bytes[i] != comma && bytes[i] != lf { text.append(bytes[i]); i += 1 }
                    if text.last == cr && (i == bytes.count || bytes[i] == lf) { text.removeLast() }
                }
                fields.append(Field(text: String(decoding: text, as: UTF8.self), line: fieldLine, column: fieldColumn))
                if i < bytes.count && bytes[i] == comma {
                    i += 1
                } else {
                    ended = true
                    if i < bytes.count { i += 1; line += 1; lineStart = i }  // the LF
                }
            }
            if fields.count == 1 && fields[0].text.allSatisfy({ $0 == " " || $0 == "\t" }) {
                blank(recordLine)
                continue
            }
            try body(fields)
        }
    }
}
