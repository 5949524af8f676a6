import FileSystem
import NumberText
import TextEscaping

/// JSON (RFC 8259) read straight from bytes into `DocumentNode`s with their places (1-based line and
/// column, columns in Unicode scalars as Yams counts them): region files, since GeoJSON is JSON, not
/// YAML. Strict: no comments, no trailing commas, no leading zeros or `+`, no `NaN`; strings must be
/// UTF-8 without raw control characters; a key may appear once per object. Nesting deeper than
/// `maximumDepth` is refused (hostile input cannot exhaust the stack). O(bytes).
///
/// A FeatureCollection's features can be handed over one at a time (`JSONReader+Features.swift`), so
/// that a file of 100,000 regions never stands as one tree.
package struct JSONReader {
    /// The deepest nesting of objects and lists read (GeoJSON needs 6).
    package static let maximumDepth = 256

    /// A syntax error with its place and a full sentence.
    package struct SyntaxError: Error {
        package var mark: DocumentNode.Mark
        package var message: String

        package init(mark: DocumentNode.Mark, message: String) {
            self.mark = mark
            self.message = message
        }
    }

    package let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0
    private var line: Int32 = 1
    private var lineStart = 0
    /// UTF-8 continuation bytes since `lineStart`: columns count scalars, not bytes.
    private var continuations = 0
    private var scratch: [UInt8] = []
    /// Whether lists of positions and features of the common shape are read straight into values
    /// (`JSONReader+Positions.swift`, `GeoJSON+Direct.swift`) rather than as nodes; the two readings give
    /// the same regions and the same messages.
    package var direct = true

    /// A reader of `bytes`, a piece of a larger text whose first byte stands at `mark` there (a packed
    /// list read again: `PackedPositions.nodes`), so that its places are the larger text's.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, at mark: DocumentNode.Mark) {
        self.bytes = bytes
        line = mark.line
        lineStart = 1 - Int(mark.column)
    }

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A byte order mark is not JSON, but editors write one; it is skipped.
        index = ByteOrderMark.length(at: bytes)
        lineStart = index
    }

    package var mark: DocumentNode.Mark {
        DocumentNode.Mark(line: line, column: Int32(clamping: index - lineStart - continuations + 1))
    }

    package var atEnd: Bool { index >= bytes.count }

    /// The byte at the reader as a person would name it in a message.
    package var found: String {
        guard index < bytes.count else { return "the end of the file" }
        let byte = bytes[index]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "a space" }
        return "the byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    package func failure(_ message: String) -> SyntaxError {
        SyntaxError(mark: mark, message: "JSON syntax error: " + message)
    }

    package mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
                continuations = 0
            default:
                return
            }
        }
    }

    package mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(what), got \(found)") }
        index += 1
    }

    /// The whole document's value, or nil when the file holds nothing but white space; the text after it
    /// must be white space.
    package mutating func document() throws(SyntaxError) -> DocumentNode? {
        skipSpace()
        guard !atEnd else { return nil }
        let root = try value(depth: 1)
        try expectEnd()
        return root
    }

    package mutating func expectEnd() throws(SyntaxError) {
        skipSpace()
        guard atEnd else { throw failure("expected the end of the file after the document's value, got \(found)") }
    }

    /// The value at the reader. With `build` false it is only checked (nothing is kept; a placeholder is
    /// returned), for a pass that looks ahead.
    package mutating func value(depth: Int, build: Bool = true) throws(SyntaxError) -> DocumentNode {
        skipSpace()
        guard depth <= Self.maximumDepth else {
            throw failure("objects and lists nested deeper than \(Self.maximumDepth) levels are refused")
        }
        let at = mark
        guard index < bytes.count else { throw failure("expected a value, got the end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: DocumentNode, value: DocumentNode)] = []
            if build { members.reserveCapacity(8) }
            var seen = KeySet()
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .mapping(members, at)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw failure("expected a key (a string in double quotes), got \(found)")
                }
                let keyMark = mark
                let key = try string(build: true)
                if let first = seen.insert(key, at: keyMark) {
                    throw SyntaxError(
                        mark: first,
                        message:
                            "a key appears more than once in one mapping: \"\(key)\" (first given here); each key may be given once"
                    )
                }
                try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
                let member = try value(depth: depth + 1, build: build)
                if build { members.append((.scalar(.init(text: key, isNull: false, number: nil, mark: keyMark)), member)) }
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}' after the value of \"\(key)\"")
                return .mapping(members, at)
            }
        case UInt8(ascii: "["):
            if build, let positions = positions(depth: depth) { return .positions(positions) }
            index += 1
            var elements: [DocumentNode] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .sequence(elements, at)
            }
            while true {
                let element = try value(depth: depth + 1, build: build)
                if build { elements.append(element) }
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']' after a list element")
                return .sequence(elements, at)
            }
        case UInt8(ascii: "\""):
            let text = try string(build: build)
            return .scalar(.init(text: text, isNull: false, number: nil, mark: at))
        case UInt8(ascii: "t"):
            try literal("true")
            return .scalar(.init(text: "true", isNull: false, number: nil, mark: at))
        case UInt8(ascii: "f"):
            try literal("false")
            return .scalar(.init(text: "false", isNull: false, number: nil, mark: at))
        case UInt8(ascii: "n"):
            try literal("null")
            return .scalar(.init(text: "null", isNull: true, number: nil, mark: at))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number(at, build: build)
        default:
            throw failure("expected a value (an object, a list, a string, a number, true, false or null), got \(found)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let start = index
        for offset in 0..<word.utf8CodeUnitCount {
            guard index < bytes.count, bytes[index] == word.utf8Start[offset] else {
                index = start
                throw failure("expected a value (an object, a list, a string, a number, true, false or null), got \(found)")
            }
            index += 1
        }
    }

    /// A number of JSON's grammar, its text as written and its value (when `ExactDecimal` reads it: other
    /// text is refused later, as for YAML).
    private mutating func number(_ at: DocumentNode.Mark, build: Bool) throws(SyntaxError) -> DocumentNode {
        let text = try numberText(at)
        guard build else { return .alias(at) }
        let value = Self.readsExactly(jsonNumber: text) ? DecimalText.double(text) : nil
        return .scalar(.init(text: String(decoding: text, as: UTF8.self), isNull: false, number: value, mark: at))
    }

    /// Whether `ExactDecimal` reads `text`, a number of JSON's grammar (`numberText`'s): at most 18
    /// characters without an exponent hold at most 18 digits, which it always reads, so they are not read
    /// twice (a region file's positions are most of its numbers); anything else, it decides. O(length).
    package static func readsExactly(jsonNumber text: UnsafeBufferPointer<UInt8>) -> Bool {
        if text.count <= 18, !text.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { return true }
        return ExactDecimal(utf8: text) != nil
    }

    /// The bytes of the number of JSON's grammar at the reader (which starts with `-` or a digit),
    /// moving past it. O(its length).
    package mutating func numberText(_ at: DocumentNode.Mark) throws(SyntaxError) -> UnsafeBufferPointer<UInt8> {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else {
            throw failure("expected a digit after '-', got \(found)")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                throw SyntaxError(
                    mark: at,
                    message:
                        "JSON syntax error: a number may not start with 0 followed by digits (JSON has no leading zeros)")
            }
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("expected a digit after the decimal point, got \(found)") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent, got \(found)") }
        }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    /// The string whose opening quote is at the reader, unescaped (empty when not `build`).
    package mutating func string(build: Bool) throws(SyntaxError) -> String {
        index += 1
        let start = index
        var escaped = false
        var nonASCII = false
        var lineContinuations = 0
        while true {
            guard index < bytes.count else { throw failure("a string is not closed before the end of the file") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw failure(
                    "a string holds the control character 0x\(String(byte, radix: 16, uppercase: true)); write it as an escape (\\n, \\t, \\u00XX)"
                )
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                var at = index
                if case let .failure(problem) = JSONEscaping.decodeEscape(bytes, at: &at, end: bytes.count) {
                    throw failure("\(problem) in a string")
                }
                index = at
                continue
            }
            if byte >= 0x80 {
                nonASCII = true
                if byte & 0xC0 == 0x80 { lineContinuations += 1 }
            }
            index += 1
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard !nonASCII || String(validating: raw, as: UTF8.self) != nil else {
            index = start
            throw failure("a string that is not UTF-8 text")
        }
        continuations += lineContinuations
        index += 1
        guard build else { return "" }
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        scratch.removeAll(keepingCapacity: true)
        var at = 0
        while at < raw.count {
            if raw[at] == UInt8(ascii: "\\"),
                case let .success(scalar) = JSONEscaping.decodeEscape(raw, at: &at, end: raw.count)
            {
                JSONEscaping.appendUTF8(scalar, to: &scratch)
            } else {
                scratch.append(raw[at])
                at += 1
            }
        }
        return String(decoding: scratch, as: UTF8.self)
    }
}

/// The keys of one object so far, for refusing a repeated key: a list while short, a set when long (a
/// hostile object of a million keys stays O(n)).
package struct KeySet {
    private var list: [(String, DocumentNode.Mark)] = []
    private var set: [String: DocumentNode.Mark] = [:]

    package init() {}

    /// Adds `key`; returns where it was first given when it was already there.
    package mutating func insert(_ key: String, at mark: DocumentNode.Mark) -> DocumentNode.Mark? {
        if set.isEmpty {
            if let first = list.first(where: { $0.0 == key }) { return first.1 }
            if list.isEmpty { list.reserveCapacity(8) }  // one allocation for most objects, not three or four
            list.append((key, mark))
            if list.count > 16 { set = Dictionary(list, uniquingKeysWith: { a, _ in a }) }
            return nil
        }
        if let first = set[key] { return first }
        set[key] = mark
        return nil
    }
}
