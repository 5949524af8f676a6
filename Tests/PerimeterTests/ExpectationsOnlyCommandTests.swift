import Foundation
import TestSupport
import Testing

/// `perimeter check --expectations-only --format github` as a GitHub Actions job runs it (issue 42 item 14),
/// on the CI scenarios of `Tests/RegressionTests/Fixtures/firsthour/`.
@Suite struct ExpectationsOnlyCommandTests {
    static let folder = "Tests/RegressionTests/Fixtures/firsthour/"

    @Test func annotationsFollowEachFailedScenario() throws {
        let result = try PerimeterProcess.run(["check", Self.folder, "--expectations-only", "--format", "github"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let fail = try #require(lines.firstIndex { $0.hasPrefix("FAIL An enter expected too early") })
        #expect(
            lines[fail + 2].hasPrefix(
                "::error file=\(Self.folder)late-store.yaml,line=13,title=perimeter check%3A An enter expected too early::"))
        #expect(lines.contains("PASS A noisy walk past the store (\(Self.folder)noisy-walk.yaml)"))
        #expect(lines.last == "2 scenarios: 1 passed, 1 failed")
    }

    @Test func theTextFormatHasNoAnnotations() throws {
        let result = try PerimeterProcess.run(["check", Self.folder, "--expectations-only"])
        #expect(result.status == 1)
        #expect(!result.stdout.contains("::error"))
    }

    @Test func expectationsOnlyCannotUpdate() throws {
        let result = try PerimeterProcess.run(["check", Self.folder, "--expectations-only", "--update"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--expectations-only reads no golden log, so it cannot --update one"))
    }
}
