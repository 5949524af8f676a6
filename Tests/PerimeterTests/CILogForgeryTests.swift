import Foundation
import TestSupport
import Testing

/// Issue 49 H1, H2: a pull request's scenario cannot forge a line of a CI log. Its name, region ids,
/// device ids, rule names, a profile file's name and a fix table's device ids hold raw line ends (LF,
/// CRLF, CR, NEL, U+2028), words that open Perimeter's own lines (`PASS`, `FAIL`, `ERROR`), GitHub
/// Actions' workflow commands (`::add-mask::`, `::error::`, a leading `::` after a no-break space) and
/// the runner's legacy `##[command]`. Every text output of every command that shows them is read as the
/// Actions runner reads a log: lines split at CR and LF (and at NEL and U+2028, which some viewers
/// break at), each trimmed of .NET's white space. No line may start with a forged word or `::` (but the
/// `::error file=` and `::warning file=` annotations `check --format github` writes itself), and no
/// line may hold `##[`, which the runner reads anywhere in a line.
@Suite("No input forges a line of a CI log")
struct CILogForgeryTests {
    /// What each field holds: a line end and a forged line, then a command.
    static let name = #"N\nPASS forged-name\r\n::add-mask::secret\NFAIL forged-name\LERROR forged-name ##[stop-commands]t"#
    static let region = #"R\nPASS forged-region\r::error::r ##[set-output name=x;]y"#
    static let device = #"D\nPASS forged-device\u0085FAIL forged-device ##[error]d\u00a0"#
    static let rule = #"W\nPASS forged-rule\u2029ERROR forged-rule ##[warning]w"#

    /// The scenario: two regions (one id a bare command), two devices (one a command after a no-break
    /// space), a dwell rule, and expectations that fail, so that `check` shows every id in its details.
    static func scenario(in folder: URL) throws {
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
        let text = """
            name: "\(name)"
            start: 2016-01-10T12:00:00Z
            profile: ios
            runs: 3
            noise: {sigma: 5m, seed: 1}
            regions:
              - {id: "\(region)", circle: {lat: 37.703026, lon: -121.759735, radius: 300}}
              - {id: "::warning::leading", circle: {lat: 37.703026, lon: -121.759735, radius: 200}}
            rules:
              - {name: "\(rule)", dwell: 10s}
            devices:
              - {id: "\(device)", track: track.gpx}
              - {id: "\\u00a0::error::leading", track: track.gpx}
            expect:
              - {kind: enter, device: "\(device)", region: "\(region)", at: "12:00:10", within: 5s}
              - {kind: dwell, rule: "\(rule)", count: 5}
              - outcome: {rule: "\(rule)", devices: {atLeast: 6}, probability: ">= 0.9"}

            """
        try Inputs.write(text, "scenario.yaml", in: folder)
        // An expectation naming a region that is not there: validate's and check's error.
        try Inputs.write(
            text.replacingOccurrences(
                of: "expect:\n", with: "expect:\n  - {kind: enter, region: \"U\\nPASS forged-unknown\", count: 1}\n"),
            "unknown.yaml", in: folder)
        try Inputs.write(
            "name: \"P\\nPASS forged-profile ##[x]\"\nbase: ios\nsource: \"S\\nPASS forged-source\"\n",
            "mine.profile.yaml", in: folder)
        try Inputs.write(
            "device,time,lat,lon\n"
                + (0..<3).map { "\"F\nPASS forged-fleet\r::error::f\",2016-01-10T12:00:\($0)0Z,37.7,-121.76\n" }.joined(),
            "fleet.csv", in: folder)
        try Inputs.write("{}\n", "scenario.events.jsonl", in: folder)
    }

    static let commands: [[String]] = [
        ["check", "scenario.yaml"],
        ["check", "scenario.yaml", "--format", "github"],
        ["check", "unknown.yaml", "--format", "github"],
        ["validate", "unknown.yaml"],
        ["run", "scenario.yaml"],
        ["run", "scenario.yaml", "--runs", "2"],
        ["run", "scenario.yaml", "--profile", "mine.profile.yaml"],
        ["compare", "scenario.yaml"],
        ["compare", "scenario.yaml", "--runs", "2"],
        ["outcomes", "scenario.yaml", "--runs", "2"],
        ["profile", "show", "mine.profile.yaml"],
        ["inspect", "fleet.csv"],
        ["inspect", "--stays", "fleet.csv"],
    ]

    /// The lines of `text` as the Actions runner and a log viewer split them.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }
    }

    /// .NET's `Char.IsWhiteSpace`, which the runner's `TrimStart` removes before it looks for `::`.
    static func trimmed(_ line: Substring) -> Substring {
        line.drop { $0.unicodeScalars.allSatisfy { s in s.properties.isWhitespace } }
    }

    /// One of `check --format github`'s own lines, read as the runner's `ActionCommand.TryParseV2` reads
    /// it: the command up to the next `::`, its properties split at `,` and unescaped (`%25`, `%0D`,
    /// `%0A`, `%3A`, `%2C`), then the message. The annotation is on a file of the scenario's, and neither
    /// its file nor its message holds a line end once unescaped.
    static func expectAnnotation(_ line: Substring) {
        let body = line.dropFirst(2)
        guard let end = body.range(of: "::") else {
            Issue.record("no end of the command: \(line)")
            return
        }
        func unescaped(_ text: some StringProtocol) -> String {
            [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")].reduce(String(text)) {
                $0.replacingOccurrences(of: $1.0, with: $1.1)
            }
        }
        let info = body[..<end.lowerBound], data = unescaped(body[end.upperBound...])
        let properties = info.drop { $0 != " " }.dropFirst().split(separator: ",").map {
            $0.split(separator: "=", maxSplits: 1).map(unescaped)
        }
        let file = properties.first { $0.first == "file" }?.last
        #expect(["scenario.yaml", "unknown.yaml", "track.gpx"].contains(file), "\(line)")
        #expect(!data.contains("\n") && !data.contains("\r"), "\(line)")
        #expect(properties.allSatisfy { !$0.joined().contains("\n") }, "\(line)")
    }

    @Test("No line starts with a forged word or command, none holds ##[", arguments: commands)
    func noForgedLine(arguments: [String]) throws {
        let folder = try TemporaryFolders.make("forgery")
        try Self.scenario(in: folder)
        let result = try PerimeterProcess.run(arguments, in: folder)
        let text = result.stdout + result.stderr
        #expect(result.status != 139 && result.status < 128, "\(text)")
        // The fields reached the output, escaped: the test is not vacuous.
        #expect(text.contains(#"\nPASS forged-"#), "\(text)")
        let github = arguments.contains("github")
        for line in Self.lines(text) {
            let start = Self.trimmed(line)
            let ours = github && (start.hasPrefix("::error file=") || start.hasPrefix("::warning file="))
            if ours { Self.expectAnnotation(start) }
            #expect(ours || !start.hasPrefix("::"), "a workflow command: \(line.debugDescription)")
            for word in ["PASS forged", "FAIL forged", "ERROR forged"] {
                #expect(!start.hasPrefix(word), "a forged line: \(line.debugDescription)")
            }
            #expect(!line.contains("##["), "a legacy runner command: \(line.debugDescription)")
        }
    }

    /// H13: a scenario named `README.md:7:3: x.yaml` is annotated at its own lines; it used to move its
    /// annotation to line 7 of README.md, which sits beside it.
    @Test func aFileNamedLikeAPlaceIsAnnotatedAtItsOwnLines() throws {
        let folder = try TemporaryFolders.make("forgery-place")
        try Inputs.write("# Perimeter\n", "README.md", in: folder)
        try Inputs.write("name: t\nregions: 5\n", "README.md:7:3: x.yaml", in: folder)
        let result = try PerimeterProcess.run(["check", "README.md:7:3: x.yaml", "--format", "github"], in: folder)
        #expect(result.status == 2, "\(result.stderr)")
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        let expected =
            "::error file=README.md%3A7%3A3%3A x.yaml,line=2,col=10,title=perimeter check%3A README.md%3A7%3A3%3A x::"
            + "regions: expected a list of regions, got \"5\""
        #expect(annotations.first.map(String.init) == expected, "\(result.stdout)")
        #expect(!annotations.contains { $0.hasPrefix("::error file=README.md,") }, "\(result.stdout)")
    }
}
