import Foundation
import Regression
import TestSupport
import Testing

/// `perimeter check --expectations-only`, a JUnit testcase per expectation, and `--format github`
/// (issue 42 item 14), on a newcomer's CI scenarios in `Fixtures/firsthour/`: a noisy walk checked over 40
/// runs with no golden log, and a walk whose expected enter is a minute early (it fails at line 13).
@Suite struct ExpectationsOnlyTests {
    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/firsthour/" + name, withExtension: nil)!.path
    }

    @Test func expectationsOnlyNeedsNoGoldenLog() {
        var checker = RegressionCheck()
        #expect(checker.check(scenarioAt: Self.fixture("noisy-walk.yaml")).status == .failed)  // no golden log
        checker.expectationsOnly = true
        let result = checker.check(scenarioAt: Self.fixture("noisy-walk.yaml"))
        #expect(result.status == .passed, "\(result.details)")
        #expect(
            result.cases.map(\.name) == [
                "expect[0]: at least 1 enter of store",
                "expect[1]: enter of store between 09:02:00 and 09:03:00 over 40 runs",
                "expect[2]: at least 1 exit of store over 40 runs",
            ])
        #expect(result.cases.map(\.line) == [14, 15, 16])
    }

    @Test func withAGoldenLogTheLogIsACaseOfItsOwn() {
        let result = RegressionCheck().check(scenarioAt: Self.fixture("noisy-walk.yaml"))
        #expect(result.cases.first?.name.hasPrefix("golden log ") == true)
        #expect(result.cases.first?.failure?.contains("--expectations-only") == true)
        #expect(result.cases.count == 4)
    }

    @Test func aScenarioWithoutExpectationsIsSaidToCheckNothing() throws {
        let folder = try TemporaryFolders.make("no-expect")
        let scenario = folder.appendingPathComponent("plain.yaml")
        try FileManager.default.copyItem(
            atPath: Self.fixture("walk.gpx"), toPath: folder.appendingPathComponent("walk.gpx").path)
        try String(contentsOfFile: Self.fixture("late-store.yaml"), encoding: .utf8)
            .components(separatedBy: "expect:")[0].write(to: scenario, atomically: true, encoding: .utf8)
        var checker = RegressionCheck()
        checker.expectationsOnly = true
        let result = checker.check(scenarioAt: scenario.path)
        #expect(result.status == .passed)
        #expect(result.warnings.contains { $0.contains("no expect: list, so --expectations-only checks nothing") })
    }

    @Test func junitHasATestcasePerExpectationAndValidates() throws {
        var checker = RegressionCheck()
        checker.expectationsOnly = true
        let results = ["late-store.yaml", "noisy-walk.yaml"].map { checker.check(scenarioAt: Self.fixture($0)) }
        let xml = JUnitReport.xml(results, hostname: "ci")
        #expect(xml.contains("tests=\"6\" failures=\"1\" errors=\"0\""))
        let late = "An enter expected too early (\(Self.fixture("late-store.yaml")))"
        #expect(
            xml.contains("<testcase classname=\"perimeter.check\" name=\"\(late): expect[0]: 1 enter of store\""))
        #expect(
            xml.contains(
                "name=\"\(late): expect[2]: enter of store between 09:01:00 and 09:01:30\" time=\"")
        )
        #expect(
            xml.contains(
                "<failure message=\"expected enter of store between 09:01:00 and 09:01:30; the nearest was at 09:02:31 (1 min 1 s after the window)\" type=\"perimeter.check\">"
            ))
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let junit = try JUnitSchema.validate(file.path)
        #expect(junit.valid, "\(junit.output)")
    }

    /// Issue 56 item 2: a testcase's name outlives edits elsewhere in the scenario. Comment lines added
    /// above the expectations move every line, and the JUnit names stay the same (the line is in the
    /// failure's text); an expectation's `id:` names its testcase even when another is put before it.
    @Test func junitNamesOutliveMovedLines() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let original = try String(contentsOfFile: Self.fixture("late-store.yaml"), encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: Self.fixture("walk.gpx"), toPath: folder.appendingPathComponent("walk.gpx").path)
        var checker = RegressionCheck()
        checker.expectationsOnly = true
        func names(_ text: String) throws -> (names: [String], text: String) {
            let path = folder.appendingPathComponent("store.yaml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = checker.check(scenarioAt: path)
            let xml = JUnitReport.xml([result])
            let names = xml.split(separator: "\n").compactMap { line -> String? in
                guard let start = line.range(of: " name=\""), line.contains("<testcase") else { return nil }
                return String(line[start.upperBound...].prefix { $0 != "\"" })
            }
            return (names, xml)
        }
        let before = try names(original)
        let moved = try names(original.replacingOccurrences(of: "expect:\n", with: "# a note\n# another\nexpect:\n"))
        #expect(before.names.count == 3)
        #expect(before.names == moved.names)
        #expect(!before.names.contains { $0.contains("line ") }, "\(before.names)")
        // The line is in the failure's text: 13 before, 15 after two comment lines.
        #expect(before.text.contains("expect[2], line 13: expected enter of store between"), "\(before.text)")
        #expect(moved.text.contains("expect[2], line 15: expected enter of store between"), "\(moved.text)")
        // An id names its testcase; one put before it changes the others' indices, not its name.
        let named = original.replacingOccurrences(
            of: "between: [\"09:01:00\", \"09:01:30\"]}", with: "between: [\"09:01:00\", \"09:01:30\"], id: early-enter}")
        let inserted = named.replacingOccurrences(
            of: "expect:\n",
            with: "expect:\n  - {kind: exit, region: store, never: true, between: [\"09:00:00\", \"09:00:10\"]}\n")
        let withID = try names(named), afterInsert = try names(inserted)
        #expect(withID.names.last?.hasSuffix(": early-enter") == true, "\(withID.names)")
        #expect(afterInsert.names.last == withID.names.last, "\(afterInsert.names)")
        #expect(afterInsert.names.count == 4)
        // Two expectations of one id are refused at the second.
        let twice = named.replacingOccurrences(
            of: "count: 1}\n  - {kind: exit", with: "count: 1, id: early-enter}\n  - {kind: exit")
        let twicePath = folder.appendingPathComponent("twice.yaml").path
        try twice.write(toFile: twicePath, atomically: true, encoding: .utf8)
        let refused = checker.check(scenarioAt: twicePath)
        #expect(refused.status == .badInput)
        #expect(refused.details.contains { $0.contains("the id \"early-enter\" is expect[0]'s too") }, "\(refused.details)")
    }

    @Test func githubAnnotationsPointAtTheExpectationsLine() {
        var checker = RegressionCheck()
        checker.expectationsOnly = true
        let path = Self.fixture("late-store.yaml")
        let lines = GitHubAnnotations.lines(checker.check(scenarioAt: path))
        #expect(
            lines == [
                "::error file=\(path),line=13,title=perimeter check%3A An enter expected too early::expected enter of "
                    + "store between 09:01:00 and 09:01:30; the nearest was at 09:02:31 (1 min 1 s after the window)"
            ])
        #expect(GitHubAnnotations.lines(checker.check(scenarioAt: Self.fixture("noisy-walk.yaml"))).isEmpty)
    }

    @Test func badInputIsAnnotatedAtItsOwnPlace() {
        var result = CheckResult(
            path: "s.yaml", name: "s", status: .badInput, headline: "the scenario could not be loaded",
            details: ["zones/a,b.geojson:4:7: features[0]: 100% wrong\nsecond line", "no place here"],
            warnings: ["walk.gpx:12: a point dropped"])
        result.files = ["walk.gpx", "zones/a,b.geojson"]
        #expect(
            GitHubAnnotations.lines(result) == [
                "::warning file=walk.gpx,line=12::a point dropped",
                "::error file=zones/a%2Cb.geojson,line=4,col=7,title=perimeter check%3A s::features[0]: 100%25 wrong\\nsecond line",
                "::error file=s.yaml,title=perimeter check%3A s::no place here",
            ])
    }

    /// Issue 49 H13: a message is placed only in a file the scenario is, read or was refused at, the
    /// longest that starts it. A scenario named `README.md:7:3: x.yaml` used to move its annotation to
    /// README.md's line 7; a file that is none of these (`README.md`) places nothing.
    @Test(arguments: [
        (
            "README.md:7:3: x.yaml:2:10: regions: expected a list",
            "::error file=README.md%3A7%3A3%3A x.yaml,line=2,col=10,title=perimeter check%3A t::regions: expected a list"
        ),
        (
            "README.md:9:1: the track is gone",
            "::error file=README.md%3A7%3A3%3A x.yaml,title=perimeter check%3A t::README.md:9:1: the track is gone"
        ),
        (
            "walk.gpx:4: a point dropped",
            "::error file=walk.gpx,line=4,title=perimeter check%3A t::a point dropped"
        ),
        (
            "walk.gpx: cannot be read",
            "::error file=walk.gpx,title=perimeter check%3A t::cannot be read"
        ),
    ])
    func aPlaceIsOneOfTheScenariosFiles(detail: String, annotation: String) {
        var result = CheckResult(
            path: "README.md:7:3: x.yaml", name: "t", status: .badInput, headline: "", details: [detail])
        result.files = ["walk.gpx"]
        #expect(GitHubAnnotations.lines(result) == [annotation])
    }
}
