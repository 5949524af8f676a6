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
        ("a right-to-left override and an isolate", "a\u{202e}SSAP\u{2066}", #"a\u202eSSAP\u2066"#, #"a\u202eSSAP\u2066"#),
        ("Latin-1 letters after 0xC2 and punctuation after 0xE2", "£° – …", "£° – …", "£° – …"),
        ("already escaped", #"\u001b[2J"#, #"\u001b[2J"#, #"\u001b[2J"#),
        // GitHub Actions' workflow commands (issue 49, H1 and H2): `##[` anywhere, `::` at a line's start
        // after white space (the runner trims .NET's white space: NEL and no-break space among it).
        ("a legacy command anywhere", "a##[stop-commands]x", #"a#\u0023[stop-commands]x"#, #"a#\u0023[stop-commands]x"#),
        ("three hashes", "###[x", #"##\u0023[x"#, #"##\u0023[x"#),
        ("hashes without a bracket", "## [x #", "## [x #", "## [x #"),
        ("a command at the start", "::add-mask::s", #"\u003a:add-mask::s"#, #"\u003a:add-mask::s"#),
        ("a command after spaces", "  \t::error::x", #"  \t\u003a:error::x"#, "  \t\u{5c}u003a:error::x"),
        ("a command after a no-break space", "\u{a0}::error::x", "\u{a0}\\u003a:error::x", "\u{a0}\\u003a:error::x"),
        // NEL is escaped, so it ends no line: the `::` after it is not at a line's start.
        ("a command after NEL", "a\u{85}::error::x", #"a\u0085::error::x"#, #"a\u0085::error::x"#),
        ("a command after a leading NEL", "\u{85}::error::x", #"\u0085\u003a:error::x"#, #"\u0085\u003a:error::x"#),
        (
            "a command on a message's second line", "ok\n ::error::x", #"ok\n ::error::x"#,
            "ok\n \\u003a:error::x"
        ),
        ("colons inside a line", "at 12:00:00 a::b", "at 12:00:00 a::b", "at 12:00:00 a::b"),
    ]

    @Test("visible escapes all controls; message keeps its line ends and tabs", arguments: cases)
    func escapes(id: String, text: String, visible: String, message: String) {
        #expect(TerminalText.visible(text) == visible)
        #expect(TerminalText.message(text) == message)
        #expect(TerminalText.message(TerminalText.message(text)) == message)  // idempotent
    }
}
