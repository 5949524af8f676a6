import Foundation
import Regression
import TestSupport
import Testing

private let results = [
    CheckResult(path: "Scenarios/lunch.yaml", name: "Lunch at Lorrenzillo's", status: .passed, seconds: 0.0123),
    CheckResult(
        path: "Scenarios/a&b.yaml", name: "Fish <&> \"chips\"", status: .failed,
        headline: "the events differ from the golden log (1 moved); 1 of 2 expectations failed",
        details: [
            "the events differ from the golden log Scenarios/a&b.events.jsonl (1 moved):",
            "  enter <shop> phone: 12:01:57 → 12:02:18 (+21 s)",
            "expect[0], line 9: expected 1 dwell \"Thanks & goodbye\", got 0 \u{1}",
        ],
        seconds: 1.5),
    CheckResult(
        path: "Scenarios/broken.yaml", name: "broken", status: .badInput,
        headline: "the scenario could not be loaded",
        details: ["Scenarios/broken.yaml:4:1: profil: unknown key \"profil\""]),
]

@Suite("JUnit XML")
struct JUnitTests {
    @Test(
        "One testsuite, a testcase per scenario, failures and errors with readable text; valid against the Ant JUnit schema")
    func report() throws {
        let xml = JUnitReport.xml(results, timestamp: Date(timeIntervalSince1970: 1_452_427_200), hostname: "ci")
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="perimeter check" tests="3" failures="1" errors="1" time="1.512" timestamp="2016-01-10T12:00:00" hostname="ci">
                  <properties/>
                  <testcase classname="perimeter.check" name="Lunch at Lorrenzillo&apos;s (Scenarios/lunch.yaml)" time="0.012"/>
                  <testcase classname="perimeter.check" name="Fish &lt;&amp;&gt; &quot;chips&quot; (Scenarios/a&amp;b.yaml)" time="1.500">
                    <failure message="the events differ from the golden log (1 moved); 1 of 2 expectations failed" type="perimeter.check">the events differ from the golden log Scenarios/a&amp;b.events.jsonl (1 moved):
                  enter &lt;shop&gt; phone: 12:01:57 → 12:02:18 (+21 s)
                expect[0], line 9: expected 1 dwell "Thanks &amp; goodbye", got 0 \u{FFFD}</failure>
                  </testcase>
                  <testcase classname="perimeter.check" name="broken (Scenarios/broken.yaml)" time="0.000">
                    <error message="the scenario could not be loaded" type="bad input">Scenarios/broken.yaml:4:1: profil: unknown key "profil"</error>
                  </testcase>
                  <system-out/>
                  <system-err/>
                </testsuite>

                """)
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let junit = try JUnitSchema.validate(file.path)
        #expect(junit.valid, "\(junit.output)")
    }

    @Test("The schema check is real: a report without a testcase's time is rejected", .enabled(if: JUnitSchema.hasXmllint))
    func schemaRejects() throws {
        let xml = JUnitReport.xml(results, hostname: "ci").replacingOccurrences(of: " time=\"1.500\"", with: "")
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let result = try JUnitSchema.shell(["xmllint", "--noout", "--schema", JUnitSchema.schema, file.path])
        #expect(result.status != 0)
        #expect(result.output.contains("The attribute 'time' is required but missing"))
    }

    @Test("Escaping round-trips through an XML parser", .enabled(if: JUnitSchema.hasXmllint))
    func roundTrip() throws {
        let tricky = "a\tb\nc \"d\" 'e' <f> & g"
        let xml = JUnitReport.xml(
            [CheckResult(path: "p", name: "n", status: .failed, headline: tricky, details: [tricky])],
            hostname: "ci")
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let message = try JUnitSchema.shell(["xmllint", "--xpath", "string(//failure/@message)", file.path])
        // xmllint ends its output with a line break.
        #expect(message.output == tricky || message.output == tricky + "\n")
        let text = try JUnitSchema.shell(["xmllint", "--xpath", "string(//failure)", file.path])
        #expect(text.output == tricky || text.output == tricky + "\n")
    }
}
