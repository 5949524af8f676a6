/// XML 1.0 escaping for the XML Perimeter writes (GPX tracks, JUnit reports): markup characters as
/// entities, and characters XML 1.0 forbids (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF)
/// replaced by U+FFFD, so that every document written reads back. O(n).
public enum XMLEscaping {
    /// Text content: `&`, `<`, `>` escaped; characters XML 1.0 forbids replaced by U+FFFD.
    public static func text(_ s: String) -> String { escape(s, attribute: false) }

    /// An attribute value in double quotes: also `"` and `'`, and tab, LF and CR as character
    /// references (so that a parser's attribute normalisation keeps them).
    public static func attribute(_ s: String) -> String { escape(s, attribute: true) }

    private static func escape(_ s: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\t" where attribute: out += "&#9;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
