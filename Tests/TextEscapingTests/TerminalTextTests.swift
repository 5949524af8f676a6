import Testing
import TextEscaping

/// Text for a terminal: every control shown as an escape, a message's own line ends and tabs kept, and
/// text with nothing to escape (or already escaped) returned as it is.
@Suite("Terminal text")
struct TerminalTextTests {
    static let cases: [(id: String, text: String, visible: String, message: String)] = [
        ("plain", "cafe Zürich 東京 🍕", "cafe Zürich 東京 🍕", "cafe Zürich 東京 🍕"),
        ("line end and tab", "a\nb\tc\r", #"a\nb\tc\r"#, "a\nb\tc\\r"),
        ("OSC title, ended by BEL", "\u{1b}]0;pwned\u{07}", #"\u001b]0;pwned\u0007"#, #"\u001b]0;pwned\u0007"#),
        ("CSI clear", "\u{1b}[2J", #"\u001b[2J"#, #"\u001b[2J"#),
        ("C1 CSI, DEL, NUL", "\u{9b}2J\u{7f}\u{0}", #"\u009b2J\u007f\u0000"#, #"\u009b2J\u007f\u0000"#),
        ("line and paragraph separators", "a\u{2028}b\u{2029}", #"a\u2028b\u2029"#, #"a\u2028b\u2029"#),
        ("Latin-1 letters after 0xC2 and punctuation after 0xE2", "£° – …", "£° – …", "£° – …"),
        ("already escaped", #"\u001b[2J"#, #"\u001b[2J"#, #"\u001b[2J"#),
    ]

    @Test("visible escapes all controls; message keeps its line ends and tabs", arguments: cases)
    func escapes(id: String, text: String, visible: String, message: String) {
        #expect(TerminalText.visible(text) == visible)
        #expect(TerminalText.message(text) == message)
        #expect(TerminalText.message(TerminalText.message(text)) == message)  // idempotent
    }
}
