import TestSupport
import Testing

/// `--help` of every verb as a person reads it: argument-parser wraps the text itself, so a line of the
/// source's discussion that ends in a written-out `\` (`\\` in a Swift string) shows as a stray backslash.
@Suite("perimeter --help")
struct HelpTextTests {
    @Test(
        "No help text shows a stray line-continuation backslash",
        arguments: [
            [], ["run"], ["stream"], ["compare"], ["report"], ["check"], ["validate"], ["inspect"], ["track"],
            ["track", "synth"], ["deliver"], ["calibrate"], ["profile"], ["profile", "show"], ["profile", "list"],
            ["summarize"],
        ])
    func noStrayBackslash(verb: [String]) throws {
        let result = try PerimeterProcess.run(verb + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE:"))
        let stray = result.stdout.split(separator: "\n").filter { $0.hasSuffix("\\") || $0.contains("\\ ") }
        #expect(stray.isEmpty, "perimeter \(verb.joined(separator: " ")) --help: \(stray)")
    }
}
