import Foundation
import TextEscaping

/// The JSON Lines side of `FixTableReader`: one JSON object per line (RFC 8259; blank lines skipped), its
/// members `device` (a string, or a number taken as its text), `time` (an ISO 8601 string, or a number of
/// seconds, or a string holding one), `lat`, `lon` (numbers, or strings holding them) and `accuracy` (a
/// number, a string holding one, or null); other members, of any shape, are skipped.
struct JSONLineFixes {
    let path: String
    let names: FixTableColumns
    private let keys: [[UInt8]]
    /// The line the unread bytes start at (1-based).
    var line = 1
    /// Whether the unread bytes start the file, where a UTF-8 byte order mark is skipped (not a piece's).
    var atFileStart = true
    /// The longest line read, in bytes with its line end; past `FixTableReader.maximumRowLength` when
    /// one was refused for its length.
    private(set) var longestRecord = 0
    /// The unescaped bytes of this line's wanted strings that held escapes.
    private var scratch: [UInt8] = []
    private var values = [Value?](repeating: nil, count: 5)

    /// Where a wanted member's value is: in the line, or (unescaped) in `scratch`.
    private struct Value {
        var range: Range<Int>
        var inScratch: Bool
        var column: Int
        var isString: Bool
        var isNull: Bool
    }

    private struct Failure: Error {
        var column: Int
        var message: String
    }

    init(path: String, names: FixTableColumns) {
        self.path = path
        self.names = names
        keys = names.names.map { Array($0.utf8) }
    }

    /// Reads lines to the end of the file, or (streaming) until a device's rows have ended; false at the end.
    @discardableResult
    mutating func read(_ file: inout ChunkedFile, into builder: inout some FixRowSink) throws(FixTableError) -> Bool {
        if atFileStart {
            try file.skipByteOrderMark()
            atFileStart = false
        }
        while true {
            // The next line: up to "\n", or the end of the file.
            let newline = try file.firstIndex(of: 0x0A, within: FixTableReader.maximumRowLength)
            if newline == nil && file.end - file.start > FixTableReader.maximumRowLength {
                longestRecord = file.end - file.start
                throw FixTableError(
                    file: path, line: line, column: 1,
                    message: "a line longer than \(FixTableReader.maximumRowLength >> 20) MiB")
            }
            let lineEnd = newline ?? file.end
            if lineEnd == file.start && newline == nil { return false }
            var contentEnd = lineEnd
            if contentEnd > file.start && file.buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            let length = lineEnd - file.start + (newline == nil ? 0 : 1)
            longestRecord = max(longestRecord, length)
            try parse(file, from: file.start, to: contentEnd, into: &builder)
            file.consume(length)
            line += 1
            if builder.deviceEnded { return true }
        }
    }

    private mutating func parse(
        _ file: borrowing ChunkedFile, from start: Int, to end: Int,
        into builder: inout some FixRowSink
    ) throws(FixTableError) {
        scratch.removeAll(keepingCapacity: true)
        for k in 0..<5 { values[k] = nil }
        let lineNumber = line
        do throws(Failure) {
            let blank = try file.buffer.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(Failure) -> Bool in
                var scanner = Scanner(bytes: b, index: start, end: end, lineStart: start)
                scanner.skipSpace()
                if scanner.index == end { return true }
                try scanner.expect(UInt8(ascii: "{"))
                scanner.skipSpace()
                if scanner.peek == UInt8(ascii: "}") {
                    scanner.index += 1
                } else {
                    while true {
                        scanner.skipSpace()
                        let keyColumn = scanner.column
                        let key = try scanner.string(into: &scratch)
                        let wanted =
                            key.inScratch
                            ? scratch.withUnsafeBufferPointer {
                                wantedColumn(named: UnsafeBufferPointer(rebasing: $0[key.range]))
                            }
                            : wantedColumn(named: UnsafeBufferPointer(rebasing: b[key.range]))
                        _ = keyColumn
                        scanner.skipSpace()
                        try scanner.expect(UInt8(ascii: ":"))
                        scanner.skipSpace()
                        let column = scanner.column
                        if let wanted {
                            guard values[wanted] == nil else {
                                throw Failure(column: keyColumn, message: "the key \"\(names.names[wanted])\" appears twice")
                            }
                            values[wanted] = try scanner.scalar(into: &scratch, column: column)
                        } else {
                            try scanner.skipValue(depth: 0)
                        }
                        scanner.skipSpace()
                        if scanner.peek == UInt8(ascii: ",") { scanner.index += 1; continue }
                        try scanner.expect(UInt8(ascii: "}"))
                        break
                    }
                }
                scanner.skipSpace()
                guard scanner.index == end else { throw Failure(column: scanner.column, message: "text after the object") }
                return false
            }
            if blank { return }
        } catch {
            let problem = FixTableError(file: path, line: lineNumber, column: error.column, message: error.message)
            if builder.rowProblem(problem) { return }  // kept, or the line skipped
            file.buffer.withUnsafeBufferPointer { b in
                scratch.withUnsafeBufferPointer { builder.refused(device: field(0, line: lineNumber, b, $0)) }
            }
            throw problem
        }
        try file.buffer.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(FixTableError) in
            try scratch.withUnsafeBufferPointer { (copied: UnsafeBufferPointer<UInt8>) throws(FixTableError) in
                func field(_ k: Int) -> RowField? { self.field(k, line: lineNumber, b, copied) }
                try builder.add(
                    device: field(0), time: field(1), lat: field(2), lon: field(3), accuracy: field(4),
                    line: lineNumber, rowEnd: (lineNumber, end - start + 1))
            }
        }
    }

    /// Wanted member `k` of the line parsed (nil when absent): its value in the line's bytes `b`, or
    /// unescaped in `copied` (`scratch`).
    @inline(__always)
    private func field(
        _ k: Int, line: Int, _ b: UnsafeBufferPointer<UInt8>, _ copied: UnsafeBufferPointer<UInt8>
    ) -> RowField? {
        guard let v = values[k] else { return nil }
        let bytes = v.inScratch ? UnsafeBufferPointer(rebasing: copied[v.range]) : UnsafeBufferPointer(rebasing: b[v.range])
        return RowField(bytes: bytes, line: line, column: v.column, isString: v.isString, isNull: v.isNull)
    }

    /// Which of the wanted columns (device, time, lat, lon, accuracy) is named `key`, if any: lengths
    /// compared first, then the bytes. O(columns + the key's length).
    private func wantedColumn(named key: UnsafeBufferPointer<UInt8>) -> Int? {
        for k in keys.indices where keys[k].count == key.count {
            // C interop: both are non-empty here (an empty key is taken first), so both have addresses.
            // swift-format-ignore: NeverForceUnwrap
            if key.isEmpty || keys[k].withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 })
            {
                return k
            }
        }
        return nil
    }

    /// A strict reader of one line's JSON, recording where values are rather than building them.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int
        let end: Int
        let lineStart: Int

        var peek: UInt8? { index < end ? bytes[index] : nil }
        var column: Int { index - lineStart + 1 }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Failure) {
            guard peek == byte else {
                throw Failure(
                    column: column,
                    message: peek == nil
                        ? "the line ends where '\(Character(Unicode.Scalar(byte)))' was expected (one JSON object per line)"
                        : "expected '\(Character(Unicode.Scalar(byte)))' (one JSON object per line)")
            }
            index += 1
        }

        /// A string's content (escapes decoded into `scratch` when it has any).
        mutating func string(into scratch: inout [UInt8]) throws(Failure) -> (range: Range<Int>, inScratch: Bool) {
            let startColumn = column
            guard peek == UInt8(ascii: "\"") else { throw Failure(column: column, message: "expected a string") }
            index += 1
            let contentStart = index
            while let b = peek, b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                if b < 0x20 {
                    throw Failure(
                        column: column,
                        message: b == 0 ? "a NUL byte; a fix table is text" : "a control character in a string")
                }
                index += 1
            }
            guard let stop = peek else { throw Failure(column: startColumn, message: "a string is never closed") }
            if stop == UInt8(ascii: "\"") {
                index += 1
                return (contentStart..<index - 1, false)
            }
            // Escapes: decode the whole string into scratch.
            let from = scratch.count
            scratch.append(contentsOf: bytes[contentStart..<index])
            while true {
                guard let b = peek else { throw Failure(column: startColumn, message: "a string is never closed") }
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    return (from..<scratch.count, true)
                case UInt8(ascii: "\\"):
                    index -= 1
                    let escapeColumn = column
                    switch JSONEscaping.decodeEscape(bytes, at: &index, end: end) {
                    case let .success(scalar) where scalar.value == 0:
                        throw Failure(column: escapeColumn, message: "a NUL character (\\u0000); a fix table is text")
                    case let .success(scalar):
                        JSONEscaping.appendUTF8(scalar, to: &scratch)
                    case let .failure(failure):
                        throw Failure(column: escapeColumn, message: failure.description + " in a string")
                    }
                default:
                    if b < 0x20 {
                        throw Failure(
                            column: column - 1,
                            message: b == 0 ? "a NUL byte; a fix table is text" : "a control character in a string")
                    }
                    scratch.append(b)
                }
            }
        }

        /// A wanted member's value: a string, a number (its text), or null.
        mutating func scalar(into scratch: inout [UInt8], column: Int) throws(Failure) -> Value {
            switch peek {
            case UInt8(ascii: "\"")?:
                let s = try string(into: &scratch)
                return Value(range: s.range, inScratch: s.inScratch, column: column, isString: true, isNull: false)
            case UInt8(ascii: "n")?:
                try literal("null")
                return Value(range: index..<index, inScratch: false, column: column, isString: false, isNull: true)
            case let b? where b == UInt8(ascii: "-") || (0x30...0x39).contains(b):
                let start = index
                while let c = peek,
                    c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                        || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || (0x30...0x39).contains(c)
                { index += 1 }
                return Value(range: start..<index, inScratch: false, column: column, isString: false, isNull: false)
            default:
                throw Failure(column: column, message: "expected a string, a number or null")
            }
        }

        private mutating func literal(_ word: StaticString) throws(Failure) {
            let column = self.column
            for i in 0..<word.utf8CodeUnitCount {
                guard peek == word.utf8Start[i] else { throw Failure(column: column, message: "expected \(word)") }
                index += 1
            }
        }

        /// Skips any value; objects and arrays nest at most 64 deep.
        mutating func skipValue(depth: Int) throws(Failure) {
            guard depth < 64 else { throw Failure(column: column, message: "values nested more than 64 deep") }
            var scratch: [UInt8] = []
            switch peek {
            case UInt8(ascii: "\"")?: _ = try string(into: &scratch)
            case UInt8(ascii: "t")?: try literal("true")
            case UInt8(ascii: "f")?: try literal("false")
            case UInt8(ascii: "n")?: try literal("null")
            case UInt8(ascii: "{")?, UInt8(ascii: "[")?:
                let close = peek == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let isObject = close == UInt8(ascii: "}")
                index += 1
                skipSpace()
                if peek == close { index += 1; return }
                while true {
                    skipSpace()
                    if isObject {
                        _ = try string(into: &scratch)
                        skipSpace()
                        try expect(UInt8(ascii: ":"))
                        skipSpace()
                    }
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    if peek == UInt8(ascii: ",") { index += 1; continue }
                    try expect(close)
                    return
                }
            case let b? where b == UInt8(ascii: "-") || (0x30...0x39).contains(b):
                while let c = peek,
                    c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                        || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || (0x30...0x39).contains(c)
                { index += 1 }
            default:
                throw Failure(column: column, message: "expected a value")
            }
        }
    }
}
