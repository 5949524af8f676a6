import Foundation
import TestSupport
import Testing

@Suite("perimeter, end to end")
struct CommandLineTests {
    @Test("run: the restaurant scenario gives the iOS timeline, as JSON Lines on standard output")
    func restaurantVisit() throws {
        let result = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--sink", "jsonl:-"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        // Hand-computed from the track (12.5 m/s, 60 m south of the centre, radius 300 m): the circle is
        // crossed 97 s in; iOS confirms 20 s later, the 10 s dwell follows; the car is 200 m beyond
        // the circle 16 s after leaving it at 12:04:24, and that is confirmed 20 s later.
        let summary = events.map { "\($0["kind"]!) \($0["time"]!)" }
        #expect(
            summary == [
                "monitor-start 2016-01-10T12:00:00.000Z", "enter 2016-01-10T12:01:57.000Z",
                "dwell 2016-01-10T12:02:07.000Z", "exit 2016-01-10T12:05:00.000Z",
                "visit 2016-01-10T12:05:00.000Z",
            ])
        #expect(events[1]["crossedAt"] as? String == "2016-01-10T12:01:37.000Z")
        #expect(events[2]["rule"] as? String == "Thanks for visiting")
        #expect(events[3]["crossedAt"] as? String == "2016-01-10T12:04:40.000Z")
        #expect(events[4]["duration"] as? Double == 183)
        #expect(result.stderr.contains("1 device, 361 samples, 5 events"))
    }

    @Test("run: --profile ideal reports the crossings themselves")
    func profileOverride() throws {
        let result = try PerimeterProcess.run([
            "run", "Scenarios/lorrenzillos.yaml", "--profile", "ideal", "--sink", "jsonl:-",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""kind":"enter","lat":37.7024864,"lon":-121.7630029"#))
        #expect(result.stdout.contains(#""time":"2016-01-10T12:04:24.000Z""#))
    }

    @Test("run: the same scenario gives byte-identical output with 1 and 2 threads")
    func deterministic() throws {
        let one = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--threads", "1", "--sink", "jsonl:-"])
        let two = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--threads", "2", "--sink", "jsonl:-"])
        #expect(one.stdout == two.stdout && !one.stdout.isEmpty)
    }

    @Test("run: several sinks fan out; files are written whole")
    func fanOut() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let jsonl = folder.appendingPathComponent("e.jsonl").path, csv = folder.appendingPathComponent("e.csv").path
        let result = try PerimeterProcess.run([
            "run", "Scenarios/lorrenzillos.yaml", "--sink", "jsonl:" + jsonl,
            "--sink", "csv:" + csv,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n")
        #expect(lines.count == 5 && rows.count == 6)
    }

    @Test(
        "Bad input exits 2 with the file and the place",
        arguments: [
            (["run", "Tests/PerimeterTests/Fixtures/typo.yaml"], "typo.yaml:3:1: profil"),
            (["run", "no-such-scenario.yaml"], "no-such-scenario.yaml"),
            (["run", "Scenarios/lorrenzillos.yaml", "--sink", "carrier-pigeon:x"], "carrier-pigeon"),
            (["inspect", "Tests/PerimeterTests/Fixtures/truncated.gpx"], "truncated.gpx:4:"),
            (["validate", "Tests/PerimeterTests/Fixtures/typo.yaml"], "typo.yaml:3:1"),
        ])
    func badInput(_ arguments: [String], _ expected: String) throws {
        let result = try PerimeterProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stdout.isEmpty || arguments[0] == "validate")
    }

    @Test("run: a read-only output folder exits 3 before running, naming the folder")
    func readOnlyFolder() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(
            at: locked, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o555])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let result = try PerimeterProcess.runUnprivileged([
            "run", "Scenarios/lorrenzillos.yaml",
            "--sink", "jsonl:" + locked.path + "/e.jsonl",
        ])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("permission denied"), "\(result.stderr)")
        #expect(result.stderr.contains(locked.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
    }

    @Test("A scenario that cannot be reached says why: missing, a folder not allowed, a part of the path not a folder")
    func unreachableScenario() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            at: PerimeterProcess.root.appendingPathComponent("Scenarios/lorrenzillos.yaml"),
            to: locked.appendingPathComponent("s.yaml"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        let scenario = locked.appendingPathComponent("s.yaml").path
        let denied = try PerimeterProcess.runUnprivileged(["validate", scenario])
        #expect(denied.status == 2)
        #expect(
            denied.stderr.contains("\(scenario) cannot be reached (permission denied on a folder of its path)"),
            "\(denied.stderr)")
        let notFolder = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml/x.yaml"])
        #expect(notFolder.status == 2)
        #expect(
            notFolder.stderr.contains(
                "Scenarios/lorrenzillos.yaml/x.yaml cannot be reached: a part of its path is not a folder"))
        let missing = try PerimeterProcess.run(["validate", "no-such.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file: no-such.yaml"), "\(missing.stderr)")
    }

    @Test("validate lists every problem, not just the first")
    func validateListsAll() throws {
        let result = try PerimeterProcess.run([
            "validate", "Tests/PerimeterTests/Fixtures/typo.yaml",
            "Scenarios/lorrenzillos.yaml", "Tests/PerimeterTests/Fixtures/truncated.gpx",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.contains("ok: Scenarios/lorrenzillos.yaml"))
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 3, "\(result.stderr)")  // two in typo.yaml, one in truncated.gpx
    }

    @Test("validate checks the whole repository: scenarios, region files, tracks and journeys")
    func validateRepository() throws {
        let result = try PerimeterProcess.run(["validate", "Scenarios/", "Tracks/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok: Tracks/journeys/airports-drive.yaml"))
        #expect(result.stdout.contains("ok: Tracks/groser-zones.geojson"))
        let folder = try PerimeterProcess.temporaryFolder()
        let journey = folder.appendingPathComponent("walk.yaml")
        try "start: 2024-05-01T09:00:00Z\nroute:\n  - at: [52.5, 13.4]\n  - {to: [52.6, 13.4], sped: 3}\n"
            .write(to: journey, atomically: true, encoding: .utf8)
        let bad = try PerimeterProcess.run(["validate", journey.path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("walk.yaml:4:"), "\(bad.stderr)")
        #expect(bad.stderr.contains("sped"))
    }

    @Test("inspect --json describes a track for machines")
    func inspectJSON() throws {
        let result = try PerimeterProcess.run(["inspect", "--json", "Tracks/lorrenzillos-visit.gpx"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let text = "\(json)"
        #expect(text.contains("361"))
    }

    @Test("inspect and validate know fix tables: devices, rows, span and drops; a bad row with its place")
    func fixTables() throws {
        let inspected = try PerimeterProcess.run(["inspect", "Tests/PerimeterTests/Fixtures/fleet.csv"])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(
            inspected.stdout == """
                Tests/PerimeterTests/Fixtures/fleet.csv
                  format    fix table, CSV
                  devices   2
                  rows      3, 3 fixes kept
                  span      2024-05-01T09:00:00.000Z – 2024-05-01T09:00:01.000Z (1 s)
                    van-1: 2 fixes 2024-05-01T09:00:00.000Z – 2024-05-01T09:00:01.000Z
                    van "2": 1 fix 2024-05-01T09:00:00.500Z – 2024-05-01T09:00:00.500Z
                  dropped   none

                """)
        let json = try PerimeterProcess.run(["inspect", "--json", "Tests/PerimeterTests/Fixtures/fleet.csv"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["rows"] as? Int == 3 && object["format"] as? String == "csv")
        #expect((object["devices"] as? [[String: Any]])?.map { $0["device"] as? String } == ["van-1", "van \"2\""])

        let folder = try PerimeterProcess.temporaryFolder()
        let bad = folder.appendingPathComponent("fleet.jsonl")
        try "{\"device\":\"a\",\"time\":0,\"lat\":1,\"lon\":2}\n{\"device\":\"a\",\"time\":1,\"lat\":\"north\",\"lon\":2}\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        for command in ["validate", "inspect"] {
            let result = try PerimeterProcess.run([command, bad.path])
            #expect(result.status == 2)
            #expect(
                result.stderr == "error: \(bad.path):2:30: \"lat\" is \"north\", which is not a number\n"
                    + (command == "validate" ? "1 problem found.\n" : ""), "\(result.stderr)")
        }
        // A CSV header naming a column twice: which of the two to read is not guessed.
        let twice = folder.appendingPathComponent("twice.csv")
        try "device,device,time,lat,lon\nd,e,0,1,2\n".write(to: twice, atomically: true, encoding: .utf8)
        for command in ["validate", "inspect"] {
            let result = try PerimeterProcess.run([command, twice.path])
            #expect(result.status == 2)
            #expect(
                result.stderr.hasPrefix("error: \(twice.path):1:8: the header names \"device\" twice (fields 1 and 2)"),
                "\(result.stderr)")
        }
    }
}
