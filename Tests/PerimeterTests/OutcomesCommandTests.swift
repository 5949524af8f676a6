import Foundation
import TestSupport
import Testing

/// `perimeter outcomes`, end to end on `Scenarios/coffee-coupon.yaml` (twelve customers, three
/// stores, a 10-minute coupon): the JSON's shape, its numbers against independent counts from `perimeter
/// run`'s own event logs, and the same bytes on any number of threads.
@Suite("perimeter outcomes, end to end")
struct OutcomesCommandTests {
    static let scenario = "Scenarios/coffee-coupon.yaml"
    static let customers = (1...12).map { "c" + ($0 < 10 ? "0" : "") + String($0) }

    static func outcomes(_ extra: [String]) throws -> [String: Any] {
        let runs = extra.contains("--runs") ? [] : ["--runs", "20"]
        let result = try PerimeterProcess.run(["outcomes", scenario, "--json"] + runs + extra)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "quiet in pipes: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The distinct devices with an event of `kind` (and `rule`, for dwell) in each line set of a JSON Lines log.
    static func devices(in lines: [Substring], kind: String, rule: String? = nil, region: String? = nil) -> Set<String> {
        var found = Set<String>()
        for line in lines {
            let event = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard event["kind"] as? String == kind else { continue }
            if let rule, event["rule"] as? String != rule { continue }
            if let region, event["region"] as? String != region { continue }
            found.insert(event["device"] as! String)
        }
        return found
    }

    @Test("--json: the shape the issue states, every outcome, profile and device")
    func jsonShape() throws {
        let object = try Self.outcomes(["--profiles", "ios,android"])
        #expect(Set(object.keys) == ["runs", "seed", "outcomes"])
        #expect(object["runs"] as? Int == 20 && object["seed"] as? Int == 1)
        let outcomes = try #require(object["outcomes"] as? [[String: Any]])
        // The rule, then each store's enter and visit.
        let keys = outcomes.map { ($0["rule"] as? String) ?? "\($0["kind"]!) \($0["region"]!)" }
        #expect(
            keys == [
                "coupon", "enter chiado", "visit chiado", "enter rossio", "visit rossio", "enter alfama", "visit alfama",
            ])
        for outcome in outcomes {
            let expected: Set<String> =
                outcome["rule"] != nil ? ["rule", "truth", "profiles"] : ["region", "kind", "truth", "profiles"]
            #expect(Set(outcome.keys) == expected)
            let truth = try #require(outcome["truth"] as? Int)
            let profiles = try #require(outcome["profiles"] as? [String: [String: Any]])
            #expect(Set(profiles.keys) == ["ios", "android"])
            for (_, profile) in profiles {
                #expect(Set(profile.keys) == ["devices", "falsePositives", "falseNegatives", "perDevice"])
                let devices = try #require(profile["devices"] as? [String: Double])
                #expect(Set(devices.keys) == ["p5", "median", "p95", "mean"])
                #expect(devices["p5"]! <= devices["median"]! && devices["median"]! <= devices["p95"]!)
                let fp = try #require(profile["falsePositives"] as? [String: Double])
                let fn = try #require(profile["falseNegatives"] as? [String: Double])
                #expect(Set(fp.keys) == ["median", "mean"] && Set(fn.keys) == ["median", "mean"])
                let shares = try #require(profile["perDevice"] as? [String: Double])
                #expect(Set(shares.keys).isSubset(of: Set(Self.customers)))
                // A run's count is the truth less its false negatives plus its false positives, and the
                // mean count is the sum of the devices' shares.
                #expect(abs(devices["mean"]! - (Double(truth) - fn["mean"]! + fp["mean"]!)) < 1e-9)
                #expect(abs(devices["mean"]! - shares.values.reduce(0, +)) < 1e-9)
            }
        }
    }

    @Test("the truth is ideal on the exact tracks; a profile's counts are its runs' distinct devices")
    func numbersFromTheEventLogs() throws {
        let object = try Self.outcomes(["--profiles", "ios"])
        let outcomes = try #require(object["outcomes"] as? [[String: Any]])
        let coupon = try #require(outcomes.first)
        // The truth: the scenario without its noise, under ideal.
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = PerimeterProcess.root.appendingPathComponent(Self.scenario)
        let exact = try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(of: "noise: {sigma: 10m, seed: 1, correlation: 30s}\n", with: "")
            .replacingOccurrences(of: "runs: 100\n", with: "")
            .replacingOccurrences(
                of: "track: ../Tracks/", with: "track: " + PerimeterProcess.root.appendingPathComponent("Tracks").path + "/"
            )
            .components(separatedBy: "expect:")[0]
        try exact.write(to: folder.appendingPathComponent("exact.yaml"), atomically: true, encoding: .utf8)
        let ideal = try PerimeterProcess.run([
            "run", folder.appendingPathComponent("exact.yaml").path, "--profile", "ideal", "--sink", "jsonl:-",
            "--allow-inputs-outside",  // its tracks are the repository's, by absolute path
        ])
        try #require(ideal.status == 0, "\(ideal.stderr)")
        let idealLines = ideal.stdout.split(separator: "\n")
        let truthCoupon = Self.devices(in: idealLines, kind: "dwell", rule: "coupon")
        #expect(coupon["truth"] as? Int == truthCoupon.count)
        #expect(truthCoupon.count >= 5)  // the example's point: several customers stay 10 minutes
        #expect(outcomes[1]["truth"] as? Int == Self.devices(in: idealLines, kind: "enter", region: "chiado").count)
        // ios's 20 runs, from run --runs: each run's distinct devices with a coupon, by nearest rank.
        let batch = try PerimeterProcess.run([
            "run", Self.scenario, "--profile", "ios", "--runs", "20", "--sink", "jsonl:-", "--quiet",
        ])
        try #require(batch.status == 0, "\(batch.stderr)")
        var byRun = [[Substring]](repeating: [], count: 20)
        for line in batch.stdout.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            byRun[try #require(event["run"] as? Int)].append(line)
        }
        let perRun = byRun.map { Self.devices(in: $0, kind: "dwell", rule: "coupon") }
        let counts = perRun.map(\.count).sorted()
        func rank(_ p: Int) -> Int { counts[(p * counts.count + 99) / 100 - 1] }
        let ios = try #require((coupon["profiles"] as? [String: [String: Any]])?["ios"])
        let devices = try #require(ios["devices"] as? [String: Double])
        #expect(
            devices["p5"] == Double(rank(5)) && devices["median"] == Double(rank(50)) && devices["p95"] == Double(rank(95)))
        #expect(abs(devices["mean"]! - Double(counts.reduce(0, +)) / 20) < 1e-9)
        let falseNegatives = perRun.map { truthCoupon.subtracting($0).count }
        let fn = try #require(ios["falseNegatives"] as? [String: Double])
        #expect(abs(fn["mean"]! - Double(falseNegatives.reduce(0, +)) / 20) < 1e-9)
        let shares = try #require(ios["perDevice"] as? [String: Double])
        // Listed: the customers who got it in the truth or in some run; the others' share is 0.
        for customer in Self.customers {
            let hit = perRun.filter { $0.contains(customer) }.count
            #expect((shares[customer] ?? 0) == Double(hit) / 20, "\(customer)")
            #expect((shares[customer] != nil) == (hit > 0 || truthCoupon.contains(customer)), "\(customer)")
        }
    }

    @Test("the same bytes on 1 and 2 threads, the table and the JSON", arguments: [false, true])
    func deterministic(json: Bool) throws {
        let arguments = ["outcomes", Self.scenario, "--runs", "12", "--seed", "5"] + (json ? ["--json"] : [])
        let one = try PerimeterProcess.run(arguments + ["--threads", "1"])
        let two = try PerimeterProcess.run(arguments + ["--threads", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(!one.stdout.isEmpty && one.stdout == two.stdout)
        if !json {
            #expect(one.stdout.contains("rule \"coupon\""))
            #expect(one.stdout.contains("12 runs of each profile with noise seeds from 5"))
        }
    }

    @Test(
        "bad input: usage errors exit 64, a scenario that does not load exits 2",
        arguments: [
            (["--profiles", "nokia"], Int32(64), "unknown profile \"nokia\""),
            (["--runs", "0"], Int32(64), "--runs must be a number of runs from 1 to 100,000, not 0."),
        ])
    func badInput(extra: [String], status: Int32, message: String) throws {
        let result = try PerimeterProcess.run(["outcomes", Self.scenario] + extra)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func missingScenario() throws {
        let result = try PerimeterProcess.run(["outcomes", "Scenarios/nope.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("nope.yaml"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

@Suite("compare's lines per rule are outcomes' rows")
struct CompareOutcomeTests {
    @Test("compare --runs --json: its outcomes are perimeter outcomes' rule rows for the same batch")
    func compareAgrees() throws {
        let compare = try PerimeterProcess.run([
            "compare", OutcomesCommandTests.scenario, "--profiles", "ios,android", "--runs", "10", "--json",
        ])
        try #require(compare.status == 0, "\(compare.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [String: Any])
        let fromCompare = try #require(object["outcomes"] as? [[String: Any]])
        let outcomes = try #require(
            try OutcomesCommandTests.outcomes(["--profiles", "ios,android", "--runs", "10"])["outcomes"] as? [[String: Any]])
        #expect(fromCompare.count == 1)
        #expect(NSDictionary(dictionary: fromCompare[0]) == NSDictionary(dictionary: outcomes[0]))
        let text = try PerimeterProcess.run(["compare", OutcomesCommandTests.scenario, "--profiles", "ios"])
        #expect(
            text.stdout.hasSuffix("rule \"coupon\": 6 devices in the truth; 7 under ios (1 not in the truth)\n"),
            "\(text.stdout)")
    }
}

@Suite("README's outcomes are real output")
struct OutcomesReadmeTests {
    /// The console block after `$ COMMAND` in `page` (README.md, or a page of docs/).
    static func block(after command: String, in page: String = "README.md") throws -> String {
        let text = try String(
            contentsOf: PerimeterProcess.root.appendingPathComponent(page), encoding: .utf8)
        let start = try #require(text.range(of: "$ \(command)\n"))
        let end = try #require(text.range(of: "```\n", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test("perimeter outcomes Scenarios/coffee-coupon.yaml prints what README shows")
    func outcomesTable() throws {
        let result = try PerimeterProcess.run(["outcomes", OutcomesCommandTests.scenario])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.block(after: "perimeter outcomes \(OutcomesCommandTests.scenario)")))
    }

    @Test("perimeter check of the example prints what the scenario reference shows (outcome: expectations)")
    func checkLines() throws {
        let result = try PerimeterProcess.run(["check", OutcomesCommandTests.scenario])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == (try Self.block(
                    after: "perimeter check \(OutcomesCommandTests.scenario)", in: "docs/SCENARIO-REFERENCE.md")))
    }
}
