/// JSON string literals (RFC 8259) for everything Perimeter writes as JSON: event logs, `inspect --json`,
/// run settings, HTTP error bodies. O(n) in the UTF-8 bytes; a string with nothing to escape is copied
/// whole.
public enum JSONEscaping {
    /// Appends `text` as a JSON string literal, quotes included. Escapes `"`, `\`, every control
    /// character (U+0000–U+001F, U+007F) and U+2028/U+2029 (which older JavaScript rejects in strings);
    /// other characters are written as UTF-8.
    public static func append(_ text: String, to out: inout String) {
        out.append("\"")
        var needsEscaping = false
        // 0xE2 starts U+2028 and U+2029 (E2 80 A8/A9): such strings take the slow path.
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            out.append(text)
            out.append("\"")
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "\u{08}": out.append("\\b")
            case "\u{0C}": out.append("\\f")
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                out.append("\\u")
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out.append(String(repeating: "0", count: 4 - hex.count))
                out.append(hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    /// `text` as a JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }
}
