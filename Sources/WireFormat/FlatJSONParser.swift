import TextEscaping

/// A strict reader of one flat JSON object (RFC 8259): string, number, true/false and null values;
/// nested objects and arrays are refused. Small on purpose: event logs hold nothing else.
struct FlatJSONParser {
    private let bytes: [UInt8]
    private var index = 0
    /// The 1-based column (byte) of each member's key read so far, in order.
    private(set) var keyColumns: [Int] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func fail(_ what: String) -> WireFormatError {
        WireFormatError(reason: "not a JSON event object: \(what) at column \(index + 1)", column: index + 1)
    }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(WireFormatError) {
        skipSpace()
        guard peek == byte else { throw fail("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    mutating func object() throws(WireFormatError) -> [(String, FlatJSONValue)] {
        try expect(UInt8(ascii: "{"))
        var members: [(String, FlatJSONValue)] = []
        skipSpace()
        if peek == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipSpace()
                keyColumns.append(index + 1)
                let key = try string()
                try expect(UInt8(ascii: ":"))
                members.append((key, try value()))
                skipSpace()
                if peek == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"))
                break
            }
        }
        skipSpace()
        guard index == bytes.count else { throw fail("text after the object") }
        return members
    }

    private mutating func value() throws(WireFormatError) -> FlatJSONValue {
        skipSpace()
        switch peek {
        case UInt8(ascii: "\"")?: return .string(try string())
        case UInt8(ascii: "n")?: try literal("null"); return .null
        case UInt8(ascii: "t")?: try literal("true"); return .bool(true)
        case UInt8(ascii: "f")?: try literal("false"); return .bool(false)
        case UInt8(ascii: "{")?, UInt8(ascii: "[")?: throw fail("a nested object or array")
        case let b? where b == UInt8(ascii: "-") || (0x30...0x39).contains(b): return .number(try number())
        default: throw fail("expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(WireFormatError) {
        for byte in word.utf8 {
            guard peek == byte else { throw fail("expected \(word)") }
            index += 1
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while let b = peek, (0x30...0x39).contains(b) { index += 1 }
        return index - start
    }

    private mutating func number() throws(WireFormatError) -> Double {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw fail("a malformed number")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("a malformed number") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("a malformed number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw fail("a malformed number") }
        return value
    }

    private mutating func string() throws(WireFormatError) -> String {
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw fail("an unterminated string") }
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8") }
                return text
            case 0x00..<0x20:
                throw fail("a control character in a string")
            case UInt8(ascii: "\\"):
                index -= 1
                let decoded = bytes.withUnsafeBufferPointer { JSONEscaping.decodeEscape($0, at: &index, end: bytes.count) }
                switch decoded {
                case let .success(scalar): JSONEscaping.appendUTF8(scalar, to: &out)
                case let .failure(failure): throw fail(failure.description)
                }
            default:
                out.append(b)
            }
        }
    }
}
