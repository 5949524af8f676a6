/// Text for a person's terminal with its control characters shown as escapes (`\n`, `\u001b`): text
/// from an input (an id, a key, a header, a value, a file's name) can then neither break a line nor
/// drive the terminal (set its title with OSC, clear or colour it with CSI, ring its bell). The one
/// escaper for what reaches a person: the console sink's ids, every message on standard error
/// (`StandardError`), and the readable reports on standard output. Escaping is idempotent (an escape
/// is plain text), so text escaped where it was made is not escaped again where it is written.
///
/// Controls are C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F: U+009B is CSI to some terminals)
/// the line and paragraph separators U+2028 and U+2029, and the bidirectional embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069), which would show the rest of a line reversed. A CI log reads two more things as commands,
/// which are escaped too: GitHub Actions' runner runs `##[command]data` anywhere in a line (its legacy
/// `ActionCommand.TryParse`), shown `#\u0023[`, and `::command::data` at a line's start after white
/// space (`TryParseV2`, which trims .NET's white space, U+0085 and U+00A0 among it), shown `\u003a:`. So
/// no id, name or file name can end a line, start one, or make one a workflow command; Perimeter's own
/// annotations (`check --format github`) are the only lines it writes that start with `::`. O(n) in the
/// UTF-8 bytes; text with nothing to escape is returned as it is, after one pass over its bytes.
public enum TerminalText {
    /// `text` with every control character escaped, line ends and tabs too: for one field of a line.
    public static func visible(_ text: String) -> String { escaped(text, keepingLines: false) }

    /// A message (`FILE:LINE: …`, a report) with every control character escaped but its own line ends
    /// (`\n`) and tabs, which are the message's layout.
    public static func message(_ text: String) -> String { escaped(text, keepingLines: true) }

    /// A report's `lines` joined by line ends, each line escaped as one field (`visible`): an id or name
    /// in a line can neither end it nor start a line of its own. O(the lines' bytes).
    public static func lines(_ lines: [String]) -> String {
        lines.map(visible).joined(separator: "\n")
    }

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
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    private static func escaped(_ text: String, keepingLines: Bool) -> String {
        guard mayHoldControl(text, keepingLines: keepingLines) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        let scalars = Array(text.unicodeScalars)
        var lineStart = true  // only white space since the start of a line: a `::` here is a command
        for (i, scalar) in scalars.enumerated() {
            let next = i + 1 < scalars.count ? scalars[i + 1] : nil
            switch scalar {
            case "\n" where keepingLines, "\t" where keepingLines: out.unicodeScalars.append(scalar)
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += unicodeEscape(scalar)
            case ":" where lineStart && next == ":": out += unicodeEscape(scalar)
            // The second `#` of `##[`.
            case "#" where i > 0 && scalars[i - 1] == "#" && next == "[": out += unicodeEscape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
            if keepingLines && scalar == "\n" {
                lineStart = true
            } else if !Self.isWhiteSpace(scalar) {
                lineStart = false
            }
        }
        return out
    }

    /// `\uXXXX`, four hex digits at least.
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// White space as .NET's `Char.IsWhiteSpace` has it, which the Actions runner trims before a `::`.
    private static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether `text`'s UTF-8 holds a byte that may start a control: below 0x20 (but a kept line end or
    /// tab), 0x7F, 0xC2 (which leads C1 and U+00A0), or 0xE1 and above (which lead U+1680, U+2028, U+2029,
    /// the bidirectional controls, U+3000, and every other character of three or four bytes); or `##[`, or `::` after
    /// nothing but spaces and tabs since a line's start (any other white space before it is a byte that
    /// sends the text the slow way).
    private static func mayHoldControl(_ text: String, keepingLines: Bool) -> Bool {
        var hashes = 0
        var lineStart = true
        var colon = false
        for byte in text.utf8 {
            if (byte < 0x20 && !(keepingLines && (byte == 0x0A || byte == 0x09))) || byte == 0x7F || byte == 0xC2
                || byte >= 0xE1
            {
                return true
            }
            if byte == UInt8(ascii: "[") && hashes >= 2 { return true }
            hashes = byte == UInt8(ascii: "#") ? hashes + 1 : 0
            if byte == UInt8(ascii: ":") && lineStart {
                if colon { return true }
                colon = true
                continue
            }
            colon = false
            if byte == 0x0A {
                lineStart = true
            } else if byte != 0x20 && byte != 0x09 {
                lineStart = false
            }
        }
        return false
    }
}
