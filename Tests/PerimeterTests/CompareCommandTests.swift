import Foundation
import GRDB
import TestSupport
import Testing

/// A command whose whole standard output is kept as a golden file in `Scenarios/` (re-recorded with
/// `PERIMETER_UPDATE_GOLDEN=1 swift test --filter CompareCommandTests`).
struct GoldenOutput: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let golden: String
    var testDescription: String { "perimeter " + arguments.joined(separator: " ") }
}

let goldenOutputs: [GoldenOutput] = [
    GoldenOutput(
        arguments: ["compare", "Scenarios/restaurant-welcome.yaml"], golden: "Scenarios/restaurant-welcome.compare.txt"),
    GoldenOutput(
        arguments: ["compare", "Scenarios/restaurant-welcome.yaml", "--json"],
        golden: "Scenarios/restaurant-welcome.compare.json"),
    GoldenOutput(
        arguments: ["run", "Scenarios/restaurant-welcome.yaml", "--runs", "100", "--quiet"],
        golden: "Scenarios/restaurant-welcome.runs.txt"),
    GoldenOutput(
        arguments: ["run", "Scenarios/restaurant-welcome.yaml", "--runs", "100", "--json", "--quiet"],
        golden: "Scenarios/restaurant-welcome.runs.json"),
    GoldenOutput(arguments: ["compare", "Scenarios/lodeals-static.yaml"], golden: "Scenarios/lodeals-static.compare.txt"),
    GoldenOutput(
        arguments: ["compare", "Scenarios/lodeals-static.yaml", "--json"], golden: "Scenarios/lodeals-static.compare.json"),
    GoldenOutput(
        arguments: [
            "compare", "Scenarios/courier-background.yaml", "--profiles", "android-documented,android-background-documented",
            "--runs", "100",
        ],
        golden: "Scenarios/courier-background.compare.txt"),
    GoldenOutput(
        arguments: [
            "compare", "Scenarios/courier-background.yaml", "--profiles", "android-documented,android-background-documented",
            "--runs", "100", "--json",
        ],
        golden: "Scenarios/courier-background.compare.json"),
]

@Suite("perimeter compare and Monte Carlo runs, end to end")
struct CompareCommandTests {
    @Test(arguments: goldenOutputs)
    func goldenOutput(_ c: GoldenOutput) throws {
        let result = try PerimeterProcess.run(c.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let path = PerimeterProcess.root.appendingPathComponent(c.golden).path
        if ProcessInfo.processInfo.environment["PERIMETER_UPDATE_GOLDEN"] == "1" {
            try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(result.stdout == golden, "re-record with PERIMETER_UPDATE_GOLDEN=1 if the change is intended")
    }

    @Test(
        "compare --json: every number in it follows from the pairs",
        arguments: [
            "Scenarios/restaurant-welcome.compare.json", "Scenarios/lodeals-static.compare.json",
            "Scenarios/courier-background.compare.json",
        ])
    func jsonIsConsistent(golden: String) throws {
        let text = try String(contentsOfFile: PerimeterProcess.root.appendingPathComponent(golden).path, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        for profile in try #require(object["profiles"] as? [[String: Any]]) {
            let pairs = try #require(profile["pairs"] as? [[String: Any]])
            let spurious = try #require(profile["spurious"] as? [[String: Any]])
            let kinds = try #require(profile["kinds"] as? [String: [String: Any]])
            for (kind, tally) in kinds {
                let ofKind = pairs.filter { $0["kind"] as? String == kind }
                let delays = ofKind.compactMap { $0["delay"] as? Double }.sorted()
                #expect(tally["paired"] as? Int == delays.count)
                #expect(tally["missed"] as? Int == ofKind.filter { $0["profile"] is NSNull }.count)
                #expect(tally["spurious"] as? Int == spurious.filter { $0["kind"] as? String == kind }.count)
                let delay = try #require(tally["delay"] as? [String: Any])
                func rank(_ p: Int) -> Double? { delays.isEmpty ? nil : delays[(p * delays.count + 99) / 100 - 1] }
                #expect(delay["median"] as? Double == rank(50) && delay["p90"] as? Double == rank(90))
                #expect(delay["max"] as? Double == delays.last)
                // The true distances' percentiles, of the paired and the spurious profile events.
                let distances =
                    (ofKind.compactMap { $0["distance"] as? Double }
                    + spurious.filter { $0["kind"] as? String == kind }.compactMap { $0["distance"] as? Double }).sorted()
                func metres(_ p: Int) -> Double? {
                    distances.isEmpty ? nil : distances[(p * distances.count + 99) / 100 - 1]
                }
                let distance = try #require(tally["distance"] as? [String: Any])
                #expect(distance["median"] as? Double == metres(50) && distance["p90"] as? Double == metres(90))
            }
        }
    }

    @Test("run --runs N: run r is byte for byte the plain run with noise seed S + r", arguments: [0, 3, 6])
    func runRIsAPlainRun(r: Int) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let batch = try PerimeterProcess.run([
            "run", "Scenarios/restaurant-welcome.yaml", "--runs", "7", "--seed", "30",
            "--sink", "jsonl:\(folder.path)/batch.jsonl",
        ])
        #expect(batch.status == 0, "\(batch.stderr)")
        let suffix = ",\"run\":\(r)}"
        let runLines = try String(contentsOfFile: folder.path + "/batch.jsonl", encoding: .utf8)
            .split(separator: "\n").filter { $0.hasSuffix(suffix) }.map { $0.dropLast(suffix.count) + "}\n" }.joined()
        // The scenario with its seed replaced, naming the repository's track by its absolute path (allowed).
        let source = PerimeterProcess.root.appendingPathComponent("Scenarios/restaurant-welcome.yaml")
        let text = try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(of: "seed: 1,", with: "seed: \(30 + r),")
            .replacingOccurrences(of: "../Tracks/", with: PerimeterProcess.root.appendingPathComponent("Tracks").path + "/")
        let copy = folder.appendingPathComponent("seeded.yaml")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let plain = try PerimeterProcess.run(["run", copy.path, "--sink", "jsonl:-", "--allow-inputs-outside"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!runLines.isEmpty && runLines == plain.stdout)
    }

    @Test(
        "run --runs N and compare --runs N: the same output on 1 and 2 threads",
        arguments: [
            ["run", "Scenarios/courier-background.yaml", "--runs", "40", "--json", "--quiet"],
            ["run", "Scenarios/restaurant-welcome.yaml", "--runs", "40", "--profile", "android-background", "--quiet"],
            ["compare", "Scenarios/courier-background.yaml", "--runs", "40", "--json"],
        ])
    func threads(arguments: [String]) throws {
        let one = try PerimeterProcess.run(arguments + ["--threads", "1"])
        let two = try PerimeterProcess.run(arguments + ["--threads", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(one.stdout == two.stdout && !one.stdout.isEmpty)
    }

    @Test("Progress is for terminals: a batch long enough to show it writes none into a pipe")
    func quietInPipes() throws {
        let result = try PerimeterProcess.run(["run", "Scenarios/restaurant-welcome.yaml", "--runs", "3000"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("of 3000 runs\u{1B}"))
        #expect(
            result.stderr.hasPrefix(
                "perimeter: Welcome at Lorrenzillo's (ios-documented): 3000 of 3000 runs, 15000 events in all, "))
    }

    @Test("With a sink on standard output, the spread goes to standard error")
    func sinkOnStandardOutput() throws {
        let result = try PerimeterProcess.run([
            "run", "Scenarios/restaurant-welcome.yaml", "--runs", "2", "--sink", "jsonl:-",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 10)
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
        #expect(result.stderr.hasPrefix("Welcome at Lorrenzillo's: 2 runs, noise seeds 1 to 2\nshare  p5"))
        // The sink is known by its parsed spec, options and all.
        let filtered = try PerimeterProcess.run([
            "run", "Scenarios/restaurant-welcome.yaml", "--runs", "2", "--sink", "jsonl:-;kinds=enter",
        ])
        #expect(filtered.status == 0)
        #expect(
            filtered.stdout.split(separator: "\n").count == 2
                && filtered.stdout.split(separator: "\n").allSatisfy { $0.contains("\"kind\":\"enter\"") })
        #expect(filtered.stderr.hasPrefix("Welcome at Lorrenzillo's: 2 runs"))
    }

    @Test("Monte Carlo sinks: CSV and SQLite keep the runs apart")
    func sinks() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run([
            "run", "Scenarios/restaurant-welcome.yaml", "--runs", "3", "--quiet",
            "--sink", "csv:\(folder.path)/e.csv", "--sink", "sqlite:\(folder.path)/e.sqlite",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let csv = try String(contentsOfFile: folder.path + "/e.csv", encoding: .utf8).components(separatedBy: "\r\n")
        #expect(csv[0].hasSuffix(",rule,detectedAt,run"))
        #expect(
            csv.dropFirst().filter { !$0.isEmpty }.map { $0.split(separator: ",").last! } == [
                "0", "0", "0", "0", "0", "1", "1", "1", "1", "1", "2", "2", "2", "2", "2",
            ])
        let rows = try DatabaseQueue(path: folder.path + "/e.sqlite").read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT monteCarloRun, status, eventCount, json_extract(settings, '$.noise.seed') AS seed FROM runs ORDER BY id"
            )
        }
        #expect(rows.map { $0["monteCarloRun"] as Int64? } == [0, 1, 2])
        #expect(rows.map { $0["seed"] as Int64? } == [1, 2, 3])
        #expect(rows.map { $0["status"] as String? } == ["complete", "complete", "complete"])
        #expect(rows.map { $0["eventCount"] as Int64? } == [5, 5, 5])
    }

    @Test(arguments: [
        CommandRefusal(
            arguments: ["run", "Scenarios/lorrenzillos.yaml", "--runs", "10"], status: 2,
            message:
                "error: Scenarios/lorrenzillos.yaml: noise: a Monte Carlo batch varies the noise seed, and this scenario has no noise; add noise: {sigma: 5m, seed: 1} (GPS error in metres; correlation: 30s makes it wander)"
        ),
        CommandRefusal(
            arguments: ["run", "Scenarios/restaurant-welcome.yaml", "--runs", "10", "--sink", "console"], status: 2,
            message:
                "error: console: this sink cannot tell the runs of a Monte Carlo batch apart; with --runs, events go to jsonl:PATH, csv:PATH or sqlite:PATH (each event with its run)"
        ),
        CommandRefusal(
            arguments: ["run", "Scenarios/restaurant-welcome.yaml", "--json"], status: 64,
            message: "--json goes with --runs (a Monte Carlo summary); for one run's events as JSON, use --sink jsonl:-."),
        CommandRefusal(
            arguments: ["run", "Scenarios/restaurant-welcome.yaml", "--runs", "0"], status: 64,
            message: "--runs must be a number of runs from 1 to 100,000, not 0."),
        CommandRefusal(
            arguments: ["compare", "Scenarios/restaurant-welcome.yaml", "--profiles", "ios,andriod"], status: 64,
            message:
                "--profiles: unknown profile \"andriod\"; the profiles are ios, ios-gps, ios-terminated, android, android-background, android-idle, ideal, ios-documented, android-documented, android-background-documented or profile files, separated by commas."
        ),
        CommandRefusal(
            arguments: ["compare", "Scenarios/restaurant-welcome.yaml", "--window", "ten minutes"], status: 64,
            message:
                "--window: expected a duration of 0 or more, in seconds or as \"90s\", \"10m\", \"1h\", got \"ten minutes\"."
        ),
        CommandRefusal(
            arguments: ["run", "Scenarios/lorrenzillos.yaml", "--threads", "0"], status: 64,
            message: "--threads must be a number of threads from 1 to 100,000, not 0; without it, one per core"),
        CommandRefusal(
            arguments: ["compare", "Scenarios/restaurant-welcome.yaml", "--threads=-2"], status: 64,
            message: "--threads must be a number of threads from 1 to 100,000, not -2; without it, one per core"),
        CommandRefusal(
            arguments: ["compare", "Scenarios/restaurant-welcome.yaml", "--seed", "3"], status: 64,
            message: "--seed goes with --runs: it is the noise seed of run 0."),
        CommandRefusal(
            arguments: ["compare", "Scenarios/restaurant-welcome.yaml", "--noisy-reference", "--exact-reference"],
            status: 64,
            message: "--noisy-reference and --exact-reference contradict each other: choose one."),
        CommandRefusal(arguments: ["compare", "Scenarios/nope.yaml"], status: 2, message: "error: Scenarios/nope.yaml"),
        // the reference cannot play monitor:'s phase: compare and run --runs refuse it alike (issue 40)
        CommandRefusal(
            arguments: ["compare", "Tests/PerimeterTests/Fixtures/phase-above-reference.yaml", "--profiles", "ios"],
            status: 2, message: "the phase 30 s is not below the observation interval"),
        CommandRefusal(
            arguments: ["run", "Tests/PerimeterTests/Fixtures/phase-above-reference.yaml", "--runs", "2"],
            status: 2, message: "the phase 30 s is not below the observation interval"),
    ])
    func refusals(_ c: CommandRefusal) throws {
        let result = try PerimeterProcess.run(c.arguments)
        #expect(result.status == c.status, "\(result.stderr)")
        #expect(result.stderr.contains(c.message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
