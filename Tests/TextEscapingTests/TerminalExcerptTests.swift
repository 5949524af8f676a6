import Testing
import TextEscaping

/// A value from another file than the scenario's own text (`TerminalText.excerpt`, issue 49 H5): whole up
/// to 16 characters, else its first 6 and its length, so that no secret read as the wrong kind is shown.
@Suite("Terminal excerpts")
struct TerminalExcerptTests {
    static let cases: [(id: String, text: String, excerpt: String)] = [
        ("empty", "", #""""#),
        ("a number", "37.70", #""37.70""#),
        ("16 digits, whole", "1714554000250000", #""1714554000250000""#),
        ("16 characters, whole", "05/10/2026 11:05", #""05/10/2026 11:05""#),
        ("17 characters, cut", "05/10/2026 11:05Z", #""05/10/…" (17 characters)"#),
        ("an ISO 8601 time, cut", "2026-13-05T09:04:00Z", #""2026-1…" (20 characters)"#),
        ("an AWS secret key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", #""wJalrX…" (40 characters)"#),
        ("a classic GitHub token", "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", #""ghp_aB…" (40 characters)"#),
        // Characters, not bytes: 22 of them, some of two, three and four bytes (34 bytes).
        ("characters are counted", "Zürich-東京-🍕-öäü-Zürich", #""Zürich…" (22 characters)"#),
        ("controls escaped in the start", "\u{1b}[2J and more text", #""\u001b[2J a…" (18 characters)"#),
    ]

    @Test("whole up to 16 characters, else the first 6 and the length", arguments: cases)
    func excerpt(id: String, text: String, excerpt: String) {
        #expect(TerminalText.excerpt(text) == excerpt)
    }
}
