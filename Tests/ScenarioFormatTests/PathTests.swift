import FileSystem
import Testing

@testable import ScenarioFormat

struct PathCase: Sendable, CustomTestStringConvertible {
    let path: String
    let scenario: String
    let resolved: String
    var testDescription: String { "\(path) from \(scenario)" }
}

@Suite("Paths relative to the scenario")
struct PathTests {
    @Test(
        "A path resolves against the scenario's folder, . and .. folded",
        arguments: [
            PathCase(path: "../Tracks/america.gpx", scenario: "Scenarios/lunch.yaml", resolved: "Tracks/america.gpx"),
            PathCase(path: "tracks/a.gpx", scenario: "lunch.yaml", resolved: "tracks/a.gpx"),
            PathCase(path: "./a.gpx", scenario: "./s/x.yaml", resolved: "s/a.gpx"),
            PathCase(path: "../../a.gpx", scenario: "s/x.yaml", resolved: "../a.gpx"),
            PathCase(path: "/data/a.gpx", scenario: "s/x.yaml", resolved: "/data/a.gpx"),
            PathCase(path: "../a.gpx", scenario: "/work/s/x.yaml", resolved: "/work/a.gpx"),
            PathCase(path: "../../../a.gpx", scenario: "/s/x.yaml", resolved: "/a.gpx"),
        ])
    func resolve(_ c: PathCase) {
        #expect(FileNames.resolve(c.path, besideFile: c.scenario) == c.resolved)
    }
}
