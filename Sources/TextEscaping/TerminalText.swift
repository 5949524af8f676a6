/// Text for a person's terminal with its control characters shown as escapes (`\n`, `\u001b`): text
/// from an input (an id, a key, a header, a value, a file's name) can then neither break a line nor
/// drive the terminal (set its title with OSC, clear or colour it with CSI, ring its bell). The one
/// escaper for what reaches a person: the console sink's ids, every message on standard error
/// (`StandardError`), and the readable reports on standard output. Escaping is idempotent (an escape
/// is plain text), so text escaped where it was made is not escaped again where it is written.
///
/// Controls are C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F: U+009B is CSI to some terminals)
/// and the line and paragraph separators U+2028 and U+2029. O(n) in the UTF-8 bytes; text with nothing
/// to escape is returned as it is, after one pass over its bytes.
public enum TerminalText {
    /// `text` with every control character escaped, line ends and tabs too: for one field of a line.
    public static func visible(_ text: String) -> String { escaped(text, keepingLines: false) }

    /// A message (`FILE:LINE: …`, a report) with every control character escaped but its own line ends
    /// (`\n`) and tabs, which are the message's layout.
    public static func message(_ text: String) -> String { escaped(text, keepingLines: true) }

    /// `text` in double quotes for a message, its controls escaped (`visible`) and cut after `limit`
    /// characters with `…`: an id, a cell or a file's first bytes, which can then neither forge a line
    /// nor show more of a file than its start. O(min(n, limit)).
    public static func quoted(_ text: some StringProtocol, limit: Int = .max) -> String {
        let cut = text.count > limit ? String(text.prefix(limit)) + "…" : String(text)
        return "\"" + visible(cut) + "\""
    }

    /// A value read from a file other than the scenario's own text (a profile file, a fix table's header
    /// or cell, GPX, GeoJSON, a field log, an event log), quoted for a message: whole when it is at most
    /// 16 characters (a number, a word, a date), else by its first 6 characters and its length,
    /// `"wJalrX…" (40 characters)`. A secrets file read as the wrong kind (an AWS secret key, a GitHub
    /// token) then shows no more than its start, in a message or in JUnit. The one rule for such values;
    /// controls escaped (`visible`). O(n) to count the characters.
    public static func excerpt(_ text: some StringProtocol) -> String {
        let count = text.count
        guard count > 16 else { return quoted(text) }
        return "\"" + visible(String(text.prefix(6))) + "…\" (\(count) characters)"
    }

    /// Whether `scalar` is one of the controls escaped.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    private static func escaped(_ text: String, keepingLines: Bool) -> String {
        guard mayHoldControl(text, keepingLines: keepingLines) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLines, "\t" where keepingLines: out.unicodeScalars.append(scalar)
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `text`'s UTF-8 holds a byte that may start a control: below 0x20 (but a kept line end or
    /// tab), 0x7F, 0xC2 (which leads C1) or 0xE2 (which leads U+2028 and U+2029).
    private static func mayHoldControl(_ text: String, keepingLines: Bool) -> Bool {
        text.utf8.contains { byte in
            (byte < 0x20 && !(keepingLines && (byte == 0x0A || byte == 0x09))) || byte == 0x7F || byte == 0xC2
                || byte == 0xE2
        }
    }
}
