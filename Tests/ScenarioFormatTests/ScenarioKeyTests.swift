import Documents
import Testing

@testable import ScenarioFormat

/// The loader's table of top-level keys (`ScenarioKey.all`): the keys a scenario may have and the guesses
/// for a misspelt one come from it, and its keys are read in its order but for a key read after the one
/// it needs, which fixes the order of the errors. Fixtures in `Fixtures/keys/`.
@Suite struct ScenarioKeyTests {
    static let allowed =
        "name, start, timezone, tick, profile, monitor, regions, rules, devices, noise, sinks, expect, runs, recorded"

    @Test func theKeysAreInTheOrderREADMEListsThem() {
        #expect(ScenarioKey.names.joined(separator: ", ") == Self.allowed)
    }

    @Test func aKeyIsReadAfterTheOneItNeedsAndEachOnce() {
        #expect(
            ScenarioKey.readingOrder.map(\.name) == [
                "name", "timezone", "start", "tick", "profile", "monitor", "regions", "rules", "devices", "noise",
                "sinks", "runs", "expect", "recorded",
            ])
    }

    @Test func everyKeyARowNamesIsARow() {
        for key in ScenarioKey.all {
            if let after = key.after { #expect(ScenarioKey.names.contains(after), "\(key.name) after \(after)") }
            if case let .readBy(other) = key.reader {
                #expect(ScenarioKey.names.contains(other), "\(key.name) read by \(other)")
            }
        }
    }

    @Test(
        "errors come in the order the keys are read",
        arguments: [
            ("zone-before-start.yaml", ["timezone", "start"]),
            ("devices-before-recorded.yaml", ["devices", "recorded"]),
            ("runs-before-expect.yaml", ["runs", "expect"]),
        ])
    func errorOrder(file: String, keyPaths: [String]) {
        #expect(errors(loading: "keys/" + file).map(\.keyPath) == keyPaths)
    }

    @Test func aMisspeltKeyIsGuessedFromTheTableAndNotReportedMissing() {
        #expect(
            errors(loading: "keys/misspelt.yaml").map { "\($0.line) \($0.keyPath): \($0.message)" } == [
                "2 regoins: unknown key \"regoins\"; did you mean \"regions\"? The keys allowed here are: \(Self.allowed).",
                "4 noize: unknown key \"noize\"; did you mean \"noise\"? The keys allowed here are: \(Self.allowed).",
            ])
    }
}
