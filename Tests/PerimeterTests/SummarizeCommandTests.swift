import Foundation
import TestSupport
import Testing

/// `perimeter summarize`, end to end: the hand-computed case of `Fixtures/summarize/` (its README says how
/// each number was worked out) read as JSON Lines and as CSV; every input kind from the real sinks and a
/// scenario giving the same summary; errors naming the file with exit 2.
@Suite("perimeter summarize, end to end")
struct SummarizeCommandTests {
    static let folder = "Tests/PerimeterTests/Fixtures/summarize/"

    static func summarize(_ arguments: [String]) throws -> String {
        let result = try PerimeterProcess.run(["summarize"] + arguments)
        try #require(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// (arguments after the log, the expected output's file).
    static let handComputed: [([String], String)] = [
        (["--by", "region", "--by", "hour"], "by-region-hour.txt"),
        (["--by", "region", "--by", "hour", "--csv"], "by-region-hour.csv"),
        (["--by", "day", "--timezone", "Europe/Madrid", "--json"], "by-day-madrid.json"),
        (["--by", "device", "--by", "region"], "by-device-region.txt"),
    ]

    @Test("The hand-computed case, from JSON Lines and from CSV", arguments: handComputed, ["events.jsonl", "events.csv"])
    func handComputedCase(_ testCase: ([String], String), log: String) throws {
        let expected = try String(contentsOfFile: Self.folder + testCase.1, encoding: .utf8)
            .replacingOccurrences(of: "events.jsonl", with: log)
        #expect(try Self.summarize([Self.folder + log] + testCase.0) == expected)
    }

    @Test("Without --by: one group of every event; UTC's days put the evening visit on 1 May")
    func oneGroup() throws {
        let csv = try Self.summarize([Self.folder + "events.jsonl", "--csv"])
        #expect(csv == "enter,exit,dwell,visit,visitP50,visitP90,visitMax\r\n5,4,1,4,900.0,2400.0,2400.0\r\n")
        let days = try Self.summarize([Self.folder + "events.jsonl", "--by", "day", "--csv"])
        #expect(days.hasSuffix("2024-05-01,5,4,1,4,900.0,2400.0,2400.0\r\n"))
    }

    @Test("JSON Lines, CSV and SQLite from the real sinks and the scenario itself give one summary")
    func everyInputKind() throws {
        let temporary = try TemporaryFolders.make("summarize")
        let jsonl = temporary.appendingPathComponent("e.jsonl").path
        let csv = temporary.appendingPathComponent("e.csv").path
        let sqlite = temporary.appendingPathComponent("e.sqlite").path
        let scenario = "Scenarios/coffee-coupon.yaml"
        let run = try PerimeterProcess.run(
            ["run", scenario, "--quiet", "--sink", "jsonl:" + jsonl, "--sink", "csv:" + csv, "--sink", "sqlite:" + sqlite])
        try #require(run.status == 0, "\(run.stderr)")
        for by in [["--by", "region", "--by", "hour"], ["--by", "device"]] {
            let outputs = try [jsonl, csv, sqlite, scenario].map { input in
                try Self.summarize([input, "--json"] + by)
                    .replacingOccurrences(of: "\"source\":\"\(URL(fileURLWithPath: input).lastPathComponent)\"", with: "")
            }
            #expect(Set(outputs).count == 1, "\(by): \(outputs)")
            #expect(outputs[0].contains("\"visit\":"), "\(outputs[0])")
        }
        // A Monte Carlo batch's log (each event with its run) is read with its runs pooled: twice the events of one.
        let batch = temporary.appendingPathComponent("batch.csv").path
        let runs = try PerimeterProcess.run(["run", scenario, "--quiet", "--runs", "2", "--sink", "csv:" + batch])
        try #require(runs.status == 0, "\(runs.stderr)")
        let pooled = try Self.summarize([batch, "--csv"]).split(separator: "\r\n")
        #expect(pooled.count == 2 && pooled[1].hasPrefix("2"), "\(pooled)")
    }

    /// (arguments, exit status, what standard error says).
    static let refusals: [([String], Int32, String)] = [
        (["Tests/PerimeterTests/Fixtures/summarize/missing.jsonl"], 2, "missing.jsonl: no such file"),
        (["README.md"], 2, "README.md: not an event log Perimeter wrote (JSON Lines, CSV with its header, or an SQLite"),
        (["Tests/PerimeterTests/Fixtures/summarize"], 2, "summarize: it is a directory, not an event log"),
        (["Tests/PerimeterTests/Fixtures/summarize/README.md"], 2, "README.md: not an event log"),
        (["Tests/PerimeterTests/Fixtures/typo.yaml"], 2, "typo.yaml:3:1"),
        (["Tests/PerimeterTests/Fixtures/summarize/events.jsonl", "--by", "week"], 64, "'week' is invalid for '--by"),
        (
            ["Tests/PerimeterTests/Fixtures/summarize/events.jsonl", "--by", "day", "--by", "day"], 64,
            "--by day is given twice"
        ),
        (["Tests/PerimeterTests/Fixtures/summarize/events.jsonl", "--csv", "--json"], 64, "give one of them"),
        (["Tests/PerimeterTests/Fixtures/summarize/events.jsonl", "--timezone", "Mars/Olympus"], 64, "not a zone"),
    ]

    @Test("Bad input exits 2 naming the file; a usage error exits 64", arguments: refusals)
    func refusal(_ refusal: ([String], Int32, String)) throws {
        let result = try PerimeterProcess.run(["summarize"] + refusal.0)
        #expect(result.status == refusal.1, "\(result.stderr)")
        #expect(result.stderr.contains(refusal.2), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("A bad line or record is named with its file, line and column")
    func badLines() throws {
        let temporary = try TemporaryFolders.make("summarize")
        let cases = [
            (
                "bad.jsonl", "{\"time\":\"2024-05-01T08:00:00.000Z\",\"device\":\"d\",\"kind\":\"enter\"}\n{",
                "bad.jsonl:1: \"crossedAt\" is missing"
            ),
            (
                "bad.csv", "time,device,region,kind,lat,lon,distance\r\n2024-05-01T08:00:00.000Z,d,r,exit,1,2,x\r\n",
                "bad.csv:2:"
            ),
            ("odd.csv", "time,device,region,kind,speed\r\n", "odd.csv:1:25: \"speed\" is not a column of an event log"),
        ]
        for (name, text, message) in cases {
            let path = temporary.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try PerimeterProcess.run(["summarize", path])
            #expect(result.status == 2 && result.stderr.contains(message), "\(name): \(result.stderr)")
        }
    }
}
