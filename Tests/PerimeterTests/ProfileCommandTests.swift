import Foundation
import TestSupport
import Testing

private let slowIOS = "Tests/PerimeterTests/Fixtures/profiles/slow-ios.profile.yaml"
private let typo = "Tests/PerimeterTests/Fixtures/profiles/typo.profile.yaml"

/// Profile files through the real binary: `--profile FILE` on the verbs that take a profile, and
/// `perimeter profile show|list`.
@Suite("perimeter profile and --profile FILE")
struct ProfileCommandTests {
    @Test("run --profile FILE: the file's fields replace its base's, and the summary names the profile")
    func runWithProfileFile() throws {
        let result = try PerimeterProcess.run([
            "run", "Scenarios/lorrenzillos.yaml", "--profile", slowIOS, "--sink", "jsonl:-",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // iOS confirms 20 s after the 12:01:37 crossing; slow-ios 40 s after it.
        #expect(result.stdout.contains(#""kind":"enter""#) && result.stdout.contains(#""time":"2016-01-10T12:02:17.000Z""#))
        #expect(result.stderr.contains("(slow-ios)"), "\(result.stderr)")
    }

    @Test(
        "A bad --profile exits 2 with the file, line, column and key",
        arguments: [
            (
                ["run", "Scenarios/lorrenzillos.yaml", "--profile", typo],
                "typo.profile.yaml:2:1: hysterisis: unknown key \"hysterisis\"; did you mean \"hysteresis\"?"
            ),
            (["run", "Scenarios/lorrenzillos.yaml", "--profile", "iso"], "iso: no built-in profile of that name"),
            (["compare", "Scenarios/lorrenzillos.yaml", "--against", typo], "typo.profile.yaml:2:1: hysterisis"),
            (["profile", "show", typo], "typo.profile.yaml:2:1: hysterisis"),
            (["validate", typo], "typo.profile.yaml:2:1: hysterisis"),
        ])
    func badProfile(_ arguments: [String], _ message: String) throws {
        let result = try PerimeterProcess.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("compare --profiles takes profile files and prints their names")
    func compareWithProfileFile() throws {
        let result = try PerimeterProcess.run(["compare", "Scenarios/lorrenzillos.yaml", "--profiles", "ios," + slowIOS])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("slow-ios"), "\(result.stdout)")
        #expect(!result.stdout.contains("profile.yaml"), "\(result.stdout)")
    }

    @Test("profile show FILE: each field with its unit and where it came from")
    func showFile() throws {
        let result = try PerimeterProcess.run(["profile", "show", slowIOS])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "slow-ios (\(slowIOS)) — app state: any (Apple's documented thresholds)", "base: ios-documented",
                "source: a test: twice the documented confirmation",
            ])
        #expect(lines.contains("confirmation     40 s     \(slowIOS):5"))
        #expect(
            lines.contains(
                "hysteresis       200 m    ios-documented: assumption: Apple's minimum distance taken as 200 m (earlier revisions' reading of the guide for testing, not found again); [cordova-541] \"iOS geofences typically don't fire **exit** until the device has moved about 200 meters outside.\""
            ))
        #expect(
            lines.contains(
                "capacity         20       ios-documented: [apple-location-guide] \"Core Location limits to 20 the number of regions that may be simultaneously monitored by a single app\""
            ))
    }

    @Test("profile show --json: one object with each field's origin")
    func showJSON() throws {
        let result = try PerimeterProcess.run(["profile", "show", "--json", slowIOS])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "slow-ios")
        #expect(object?["bases"] as? [String] == ["ios-documented"])
        let fields = object?["fields"] as? [[String: Any]] ?? []
        let confirmation = fields.first { $0["field"] as? String == "confirmation" }
        #expect(confirmation?["value"] as? String == "40 s")
        #expect((confirmation?["from"] as? [String: Any])?["line"] as? Int == 5)
        let capacity = fields.first { $0["field"] as? String == "capacity" }
        #expect((capacity?["from"] as? [String: Any])?["profile"] as? String == "ios-documented")
    }

    @Test("check: a scenario's profile file is an input of its golden log, and a change to it is named")
    func checkNamesProfileFile() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let track = FileManager.default.currentDirectoryPath + "/Tracks/lorrenzillos-visit.gpx"
        let scenario = folder.appendingPathComponent("visit.yaml").path
        let profile = folder.appendingPathComponent("phone.profile.yaml").path
        try """
        start: 2016-01-10T12:00:00Z
        profile: phone.profile.yaml
        regions: [{id: lorrenzillos, circle: {lat: 37.703026, lon: -121.759735, radius: 300}}]
        devices: [{id: phone, track: \(track), pace: 1}]
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        try "base: ios-documented\nconfirmation: 40s\n".write(toFile: profile, atomically: true, encoding: .utf8)
        // The track is the repository's, by absolute path: the operator allows it.
        let update = try PerimeterProcess.run(["check", "--update", "--allow-inputs-outside", scenario])
        #expect(update.status == 0, "\(update.stderr)")
        let inputs = try String(
            contentsOfFile: folder.appendingPathComponent("visit.events.inputs.json").path, encoding: .utf8)
        #expect(inputs.contains(#"{"kind": "profile", "path": "phone.profile.yaml""#), "\(inputs)")
        #expect(inputs.contains(#""profile": "phone""#), "\(inputs)")

        try "base: ios-documented\nconfirmation: 30s\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let check = try PerimeterProcess.run(["check", "--allow-inputs-outside", scenario])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(
            (check.stdout + check.stderr).contains("profile phone.profile.yaml changed"), "\(check.stdout)\(check.stderr)")
    }

    @Test("profile list: the built-ins in order, the -documented ones among them")
    func list() throws {
        let result = try PerimeterProcess.run(["profile", "list"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(
            names == [
                "ios", "ios-gps", "ios-terminated", "android", "android-background", "android-idle", "ideal",
                "ios-documented", "android-documented", "android-background-documented",
            ])
    }
}
