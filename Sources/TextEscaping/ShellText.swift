/// Words for a POSIX shell, for a command line printed for a person to paste back (`perimeter deliver …`
/// after a failed HTTP sink, the calibration page's command): the one shell quoter. O(n).
public enum ShellText {
    /// `text` as one word: as it is when it is not empty and holds only ASCII letters, digits and
    /// `-_./:@%+=,`; otherwise in single quotes, each `'` in it written `'\''`.
    public static func word(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "@", "%", "+", "=", ",": true
            default: false
            }
        }
        if plain && !text.isEmpty { return text }
        var quoted = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted += "'\\''" } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }

    /// `words` as a command line: each a word (`word(_:)`), separated by spaces.
    public static func line(_ words: [String]) -> String { words.map(word).joined(separator: " ") }
}
