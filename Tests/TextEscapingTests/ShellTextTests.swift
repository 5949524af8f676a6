import Testing
import TextEscaping

/// Hand-written cases for the one shell quoter (`ShellText`): the `deliver` command an HTTP sink prints and
/// the calibration page's command line.
@Suite("Shell words")
struct ShellTextTests {
    @Test(
        "shell words",
        arguments: [
            ("plain", "spool/events.jsonl", "spool/events.jsonl"),
            ("URL, percent, comma, equals", "https://h.example/e,x%20=y@z+1", "https://h.example/e,x%20=y@z+1"),
            ("semicolon quoted", "https://h.example/e;batch=2", "'https://h.example/e;batch=2'"),
            ("space", "field log.jsonl", "'field log.jsonl'"),
            ("quote", "it's", #"'it'\''s'"#),
            ("empty", "", "''"),
            ("non-ASCII", "café", "'café'"),
            ("dollar", "$HOME", "'$HOME'"),
        ])
    func shell(id: String, word: String, quoted: String) {
        #expect(ShellText.word(word) == quoted, "\(id)")
    }

    @Test(
        "command lines",
        arguments: [
            (["plain", "a/b.yaml", "--seed=3"], "plain a/b.yaml --seed=3"),
            (["two words"], "'two words'"),
            (["it's"], #"'it'\''s'"#),
            ([""], "''"),
        ])
    func commandLine(words: [String], line: String) {
        #expect(ShellText.line(words) == line)
    }
}
