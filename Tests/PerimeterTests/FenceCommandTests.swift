import Foundation
import TestSupport
import Testing

/// `perimeter inspect stores.geojson` and `perimeter validate --profile LIST` (issue 42 item 6) on a
/// newcomer's files: a geojson.io store file and the kiosk fixtures of ScenarioFormatTests.
@Suite struct FenceCommandTests {
    static let folder = "Tests/ScenarioFormatTests/Fixtures/firsthour/"

    @Test func inspectTakesAGeoJSONFile() throws {
        let result = try PerimeterProcess.run(["inspect", Self.folder + "kiosks.geojson", "--profile", "ios,android"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == Self.folder + "kiosks.geojson: 3 fences, under ios, android")
        #expect(lines.contains("kiosk (Newspaper kiosk): polygon, area 64 m², 4 m deep at most, enclosing radius 5.7 m"))
        #expect(lines.contains { $0.hasPrefix("  android     NEVER ENTERS: an enter needs a fix 5.9 m inside") })
        #expect(lines.contains("  neighbours  \"cafe\" 50 m away"))
    }

    @Test func inspectJSONIsOneObjectAFile() throws {
        let result = try PerimeterProcess.run([
            "inspect", Self.folder + "kiosks.geojson", Self.folder + "stores.geojson", "--json", "--profile", "android",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 2)
        #expect((objects.last?["fences"] as? [Any])?.count == 12)
        // The geojson.io numbering is said on standard error, once.
        #expect(result.stderr.components(separatedBy: "12 features have a number as their id").count == 2)
    }

    /// Issue 56 item 5: `inspect --id-property` reads the ids from a property, as a scenario's `idProperty:`;
    /// without it, geojson.io's numbering is said with the option to give, not a scenario's key.
    @Test func inspectReadsIdsFromAProperty() throws {
        let stores = Self.folder + "stores.geojson"
        let plain = try PerimeterProcess.run(["inspect", stores, "--profile", "ios"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("to take the ids from a property, give --id-property store_code"), "\(plain.stderr)")
        let named = try PerimeterProcess.run(["inspect", stores, "--profile", "ios", "--id-property", "store_code"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.contains("LX-101 (Store 101): polygon"), "\(named.stdout)")
        #expect(!named.stderr.contains("a number as their id"), "\(named.stderr)")
        let misspelt = try PerimeterProcess.run(["inspect", stores, "--id-property", "storecode"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("the feature has no property \"storecode\" (--id-property)"), "\(misspelt.stderr)")
        #expect(misspelt.stderr.contains("did you mean \"store_code\"?"), "\(misspelt.stderr)")
    }

    /// `validate --id-property` reads a region file's ids as `inspect --id-property` does.
    @Test func validateReadsIdsFromAProperty() throws {
        let stores = Self.folder + "stores.geojson"
        let named = try PerimeterProcess.run(["validate", stores, "--id-property", "store_code"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(!named.stderr.contains("a number as their id"), "\(named.stderr)")
        let misspelt = try PerimeterProcess.run(["validate", stores, "--id-property", "storecode"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("the feature has no property \"storecode\" (--id-property)"), "\(misspelt.stderr)")
    }

    @Test func aBadProfileNameIsAUsageError() throws {
        let result = try PerimeterProcess.run(["validate", Self.folder + "kiosks.geojson", "--profile", "andriod"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--profile: unknown profile \"andriod\""))
    }

    @Test func validateWithProfilesWarnsOfFencesTheyCannotFire() throws {
        let plain = try PerimeterProcess.run(["validate", Self.folder + "kiosk-walk.yaml"])
        #expect(plain.status == 0)
        #expect(!plain.stderr.contains("android profile"))
        let checked = try PerimeterProcess.run([
            "validate", Self.folder + "kiosk-walk.yaml", Self.folder + "kiosks.geojson", "--profile", "android",
        ])
        #expect(checked.status == 0, "warnings are not problems")
        let warned = checked.stderr.split(separator: "\n").filter {
            $0.contains("region \"kiosk\" can never get an enter under the android profile")
        }
        #expect(warned.count == 2, "\(checked.stderr)")
        #expect(checked.stdout.contains("ok: \(Self.folder)kiosk-walk.yaml"))
    }
}

/// `run`'s warnings on a newcomer's GPS-logger tracks (issue 42 item 8): summed up by kind, every one with
/// `--all-warnings`, none with `--quiet` (docs/COMMANDS.md: `--quiet` leaves errors alone on standard error).
@Suite struct WarningFloodCommandTests {
    static let scenario = FenceCommandTests.folder + "logger.yaml"

    static func warnings(_ extra: [String]) throws -> (lines: [Substring], status: Int32, stderr: String) {
        let result = try PerimeterProcess.run(["run", scenario, "--sink", "jsonl:/dev/null"] + extra)
        return (result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }, result.status, result.stderr)
    }

    @Test func summedUpByDefault() throws {
        let (lines, status, stderr) = try Self.warnings([])
        #expect(status == 0)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("warning: 40 duplicate-time points dropped in 8 tracks; first: ") == true)
        #expect(stderr.contains(", 41 warnings, "))  // the summary line counts every one
    }

    @Test func allWarningsListsEveryOne() throws {
        #expect(try Self.warnings(["--all-warnings"]).lines.count == 41)
    }

    @Test func quietLeavesOnlyErrors() throws {
        let (_, status, stderr) = try Self.warnings(["--quiet"])
        #expect(status == 0)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test func validateAndCheckSumUpToo() throws {
        let validate = try PerimeterProcess.run(["validate", Self.scenario])
        #expect(validate.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.count == 2)
        let all = try PerimeterProcess.run(["validate", Self.scenario, "--all-warnings"])
        #expect(all.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.count == 41)
    }
}
