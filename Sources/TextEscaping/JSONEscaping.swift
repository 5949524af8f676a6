/// JSON string literals (RFC 8259) for everything Perimeter writes as JSON: event logs, `inspect --json`,
/// run settings, HTTP error bodies. O(n) in the UTF-8 bytes; a string with nothing to escape is copied
/// whole.
public enum JSONEscaping {
    /// Appends `text` as a JSON string literal, quotes included, to UTF-8 bytes. Escapes `"`, `\`, every
    /// control character (U+0000–U+001F, U+007F) and U+2028/U+2029 (which older JavaScript rejects in
    /// strings); other characters are written as UTF-8. No allocation beyond `out`'s growth.
    @inlinable
    public static func append(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        if needsEscaping(text) {
            appendEscaped(text, to: &out)
        } else {
            out.append(contentsOf: text.utf8)
        }
        out.append(0x22)
    }

    /// Appends `text` as a JSON string literal, quotes included.
    public static func append(_ text: String, to out: inout String) {
        guard needsEscaping(text) else {
            out.append("\"")
            out.append(text)
            out.append("\"")
            return
        }
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        out.append(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` as a JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    /// Whether `text` holds a byte that may need escaping. 0xE2 starts U+2028 and U+2029 (E2 80 A8/A9):
    /// such strings take the slow path.
    @inlinable
    public static func needsEscaping(_ text: String) -> Bool {
        // Through the bytes where they lie (a native string's always are; any other is made native).
        var text = text
        return text.withUTF8(needsEscaping)
    }

    /// Whether UTF-8 `bytes` hold a byte that may need escaping (as `needsEscaping(_:)` of a string): below
    /// 0x20, `"`, `\`, 0x7F or 0xE2. Eight bytes at a time (`ByteLanes`). O(n).
    @inlinable
    public static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteLanes.contains(bytes, filler: UInt8(ascii: "a")) { word in
            ByteLanes.below(word, 0x20) | ByteLanes.equal(word, 0x22) | ByteLanes.equal(word, 0x5C)
                | ByteLanes.equal(word, 0x7F) | ByteLanes.equal(word, 0xE2)
        }
    }

    /// The slow path: scalar by scalar, the short escapes where JSON has them, `\u00XX` otherwise.
    @usableFromInline
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        func ascii(_ s: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": ascii("\\\"")
            case "\\": ascii("\\\\")
            case "\n": ascii("\\n")
            case "\r": ascii("\\r")
            case "\t": ascii("\\t")
            case "\u{08}": ascii("\\b")
            case "\u{0C}": ascii("\\f")
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                ascii("\\u")
                let hex: StaticString = "0123456789abcdef"
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.append(hex.utf8Start[Int(scalar.value >> UInt32(shift)) & 0xF])
                }
            default:
                appendUTF8(scalar, to: &out)
            }
        }
    }
}
