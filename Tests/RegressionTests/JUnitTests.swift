import Foundation
import Regression
import Testing

/// Runs a command, returning its exit status and standard output.
private func shell(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

private var hasXmllint: Bool { (try? shell(["sh", "-c", "command -v xmllint"]).status) == 0 }

/// Validates a JUnit report against the Ant JUnit schema in Fixtures with `xmllint --schema`, or, where
/// xmllint is not installed, checks the same structure with python3's `xml.etree`.
func validateJUnit(_ path: String) throws {
    if hasXmllint {
        let result = try shell(["xmllint", "--noout", "--schema", fixture("junit-ant.xsd"), path])
        #expect(result.status == 0, "\(result.output)")
        return
    }
    let script = """
        import sys, xml.etree.ElementTree as ET
        root = ET.parse(sys.argv[1]).getroot()
        assert root.tag == "testsuite", root.tag
        for a in ("name", "timestamp", "hostname", "tests", "failures", "errors", "time"): assert a in root.attrib, a
        kids = [c.tag for c in root]
        assert kids[0] == "properties" and kids[-2:] == ["system-out", "system-err"], kids
        cases = root.findall("testcase")
        assert set(kids[1:-2]) <= {"testcase"}, kids
        assert int(root.get("tests")) == len(cases)
        assert int(root.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        assert int(root.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
        for c in cases:
            for a in ("name", "classname", "time"): assert a in c.attrib, a
            float(c.get("time"))
            assert len(list(c)) <= 1 and all(o.tag in ("failure", "error") and "type" in o.attrib for o in c)
        """
    let result = try shell(["python3", "-c", script, path])
    #expect(result.status == 0, "\(result.output)")
}

private let results = [
    CheckResult(path: "Scenarios/lunch.yaml", name: "Lunch at Lorrenzillo's", status: .passed, seconds: 0.0123),
    CheckResult(path: "Scenarios/a&b.yaml", name: "Fish <&> \"chips\"", status: .failed,
                headline: "the events differ from the golden log (1 moved); 1 of 2 expectations failed",
                details: ["the events differ from the golden log Scenarios/a&b.events.jsonl (1 moved):",
                          "  enter <shop> phone: 12:01:57 → 12:02:18 (+21 s)",
                          "expect[0], line 9: expected 1 dwell \"Thanks & goodbye\", got 0 \u{1}"],
                seconds: 1.5),
    CheckResult(path: "Scenarios/broken.yaml", name: "broken", status: .badInput,
                headline: "the scenario could not be loaded",
                details: ["Scenarios/broken.yaml:4:1: profil: unknown key \"profil\""]),
]

@Suite("JUnit XML")
struct JUnitTests {
    @Test("One testsuite, a testcase per scenario, failures and errors with readable text; valid against the Ant JUnit schema")
    func report() throws {
        let xml = JUnitReport.xml(results, timestamp: Date(timeIntervalSince1970: 1_452_427_200), hostname: "ci")
        #expect(xml == """
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
        let file = try temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        try validateJUnit(file.path)
    }

    @Test("The schema check is real: a report without a testcase's time is rejected", .enabled(if: hasXmllint))
    func schemaRejects() throws {
        let xml = JUnitReport.xml(results, hostname: "ci").replacingOccurrences(of: " time=\"1.500\"", with: "")
        let file = try temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let result = try shell(["xmllint", "--noout", "--schema", fixture("junit-ant.xsd"), file.path])
        #expect(result.status != 0)
        #expect(result.output.contains("The attribute 'time' is required but missing"))
    }

    @Test("Escaping round-trips through an XML parser", .enabled(if: hasXmllint))
    func roundTrip() throws {
        let tricky = "a\tb\nc \"d\" 'e' <f> & g"
        let xml = JUnitReport.xml([CheckResult(path: "p", name: "n", status: .failed, headline: tricky, details: [tricky])],
                                  hostname: "ci")
        let file = try temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let message = try shell(["xmllint", "--xpath", "string(//failure/@message)", file.path])
        // xmllint ends its output with a line break.
        #expect(message.output == tricky || message.output == tricky + "\n")
        let text = try shell(["xmllint", "--xpath", "string(//failure)", file.path])
        #expect(text.output == tricky || text.output == tricky + "\n")
    }
}
