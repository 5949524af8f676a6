import Foundation
import TestSupport
import Testing

/// The slips new users made without a word from Perimeter (issue "The first hour of a new user"), each
/// now said through the `perimeter` executable, with the exact message.
@Suite("Guard rails against silent mistakes")
struct GuardRailTests {
    /// A scenario in a fresh folder beside a copy of the restaurant's track (`track.gpx`).
    static func scenario(_ yaml: String) throws -> (folder: URL, path: String) {
        let folder = try PerimeterProcess.temporaryFolder()
        try FileManager.default.copyItem(
            at: PerimeterProcess.root.appendingPathComponent("Tracks/courier-anna.gpx"),
            to: folder.appendingPathComponent("anna.gpx"))
        let path = folder.appendingPathComponent("scenario.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    // MARK: Silent mistakes become warnings, in validate and in run

    static let mistakes = """
        name: Mistakes
        start: 2024-05-01T10:00:00Z
        regions:
          - {id: order-101, circle: {lat: 59.9660, lon: 30.3110, radius: 0.05}}
          - {id: swapped, circle: {lat: 30.3110, lon: 59.9660, radius: 1km}}
          - {id: far, circle: {lat: 37.703026, lon: 37.703026, radius: 300}}
        rules:
          - {name: delivered, dwell: 180000, regions: [order-101]}
          - {name: fine, dwell: 2m}
        devices:
          - {id: anna, track: anna.gpx}

        """

    @Test(
        "A radius in km written as m, swapped coordinates, a far region and a dwell in ms: four warnings",
        arguments: [["validate"], ["run", "--sink", "jsonl:/dev/null"]])
    func likelyMistakes(command: [String]) throws {
        let (folder, path) = try Self.scenario(Self.mistakes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run([command[0], path] + command.dropFirst())
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.map(String.init)
        #expect(
            warnings == [
                "warning: \(path):4:10: regions[0].id: region \"order-101\" has a radius of 0.05 m, less than a phone's GPS can tell apart (5 m at best): a device is almost never inside it; a radius without a unit is in metres: did you mean \"0.05km\"?",
                "warning: \(path):5:10: regions[1].id: region \"swapped\" is at least 3,292 km from every device's track, and would be near them with latitude and longitude the other way round: are they swapped? (lat 30.311, lon 59.966)",
                "warning: \(path):4:3: regions: 1 of 3 regions is more than 10 km from every device's track, so no device can reach it: far (2,471 km)",
                "warning: \(path):8:30: rules[0].dwell: rule \"delivered\" needs 2 d 2 h inside a region, longer than every track (the longest, anna's, lasts 41 min 56 s): it can never fire; a duration without a unit is in seconds: did you mean \"180000ms\"?",
            ])
    }

    /// A 30 × 20 m café (10 m deep at most) beside Anna's start, a 12 m circle, the café's shape with its
    /// own enterConfidence, and a radius of 5,000 km.
    static let smallFences = """
        name: Small fences
        profile: PROFILE
        regions:
          - {id: cafe, polygon: {type: Polygon, coordinates: [[[30.31700, 59.92660], [30.31754, 59.92660], [30.31754, 59.92678], [30.31700, 59.92678], [30.31700, 59.92660]]]}}
          - {id: kiosk, circle: {lat: 59.9265, lon: 30.3170, radius: 12}}
          - {id: corner, enterConfidence: 0.6, polygon: {type: Polygon, coordinates: [[[30.31700, 59.92660], [30.31754, 59.92660], [30.31754, 59.92678], [30.31700, 59.92678], [30.31700, 59.92660]]]}}
          - {id: city, circle: {lat: 59.9265, lon: 30.3170, radius: 5000km}}
        devices:
          - {id: anna, track: anna.gpx}

        """

    // By SEMANTICS §5, 85 % of a 20 m circle lies inside at a depth of 0.58514 × 20 = 11.70 m.
    @Test(
        "A fence no fix can enter under the profile is said, per region and profile; so is a radius of 5,000 km",
        arguments: [
            (
                profile: "android-documented", command: ["validate"], place: ":4:10: regions[0].id: ",
                under: "android-documented"
            ),
            (
                profile: "android-documented", command: ["run", "--sink", "jsonl:/dev/null"],
                place: ":4:10: regions[0].id: ", under: "android-documented"
            ),
            (
                profile: "ios-documented",
                command: ["run", "--profile", "android-background-documented", "--sink", "jsonl:/dev/null"], place: ": ",
                under: "android-background-documented"
            ),
            (
                profile: "ios-documented", command: ["compare", "--profiles", "ios-documented,android-documented"],
                place: ": ", under: "android-documented"
            ),
        ])
    func fencesTooSmall(profile: String, command: [String], place: String, under: String) throws {
        let (folder, path) = try Self.scenario(Self.smallFences.replacingOccurrences(of: "PROFILE", with: profile))
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run([command[0], path] + command.dropFirst())
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.map(String.init)
        #expect(
            warnings.contains(
                "warning: \(path):7:10: regions[3].id: region \"city\" has a radius of 5,000 km, far larger "
                    + "than any geofence a phone monitors (tens of metres to a few kilometres): check its unit (a radius without one is in metres)"
            ))
        let cafe = warnings.filter { $0.contains("can never get an enter") }
        #expect(
            cafe == [
                "warning: \(path)\(place)region \"cafe\" can never get an enter under the \(under) profile: an enter "
                    + "needs a fix 11.7 m inside (85 % of a 20 m accuracy circle inside), and no point of it is that deep; make the region "
                    + "larger, or lower its enterConfidence (or the monitor's) if your phones enter it"
            ])
    }

    /// Under a profile with outlier episodes (the fitted `android`) a fix may land anywhere, rarely: the
    /// warning says so. The monitor's 20 m accuracy makes the café's 10 m too shallow for the 85 % rule.
    @Test("Under a profile with outliers, a fence no fix can enter is said with the outliers' caveat")
    func fencesTooSmallWithOutliers() throws {
        let text = Self.smallFences.replacingOccurrences(of: "PROFILE", with: "android\nmonitor: {accuracy: 20m}")
        let (folder, path) = try Self.scenario(text)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run(["validate", path])
        let cafe = result.stderr.split(separator: "\n").filter { $0.contains("region \"cafe\" can never get an enter") }
        #expect(
            cafe.count == 1
                && cafe[0].contains(
                    "under the android profile: an enter needs a fix 11.7 m inside "
                        + "(85 % of a 20 m accuracy circle inside), and no point of it is that deep (but on an outlier episode's fix, "
                        + "hundreds of metres off: rarely); make the region larger"),
            "\(result.stderr)")
    }

    /// A walk that never goes more than about 110 m from a 20 m kiosk: under iOS's 200 m hysteresis it can
    /// never be left; under Android (no hysteresis) it can.
    /// The walk's farthest point is 100.4 m from the kiosk's centre (103.4 m with the check's 2 % and 1 m
    /// to spare): 83.4 m outside a 20 m kiosk, short of iOS's 200 m hysteresis; under Android (an exit needs
    /// 85 % of a 20 m circle outside, 11.7 m out) only a 100 m kiosk, 3.4 m at most, cannot be left.
    @Test(
        "A fence no track goes far enough from to exit is said, by the profile's hysteresis or accuracy rule",
        arguments: [
            (
                profile: "ios-documented", radius: 20,
                reason: "more than 200 m outside it (its hysteresis), and no track goes farther than 83.4 m" as String?
            ),
            (profile: "android-documented", radius: 20, reason: nil),
            (
                profile: "android-documented", radius: 100,
                reason:
                    "more than 11.7 m outside it (15 % or less of a 20 m accuracy circle inside), and no track goes farther than 3.4 m"
            ),
        ])
    func neverExited(profile: String, radius: Int, reason: String?) throws {
        let (folder, path) = try Self.scenario(
            """
            name: Kiosk
            profile: \(profile)
            regions:
              - {id: kiosk, circle: {lat: 59.9300, lon: 30.3000, radius: \(radius)}}
            devices:
              - {id: walker, track: walk.gpx}

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="59.9300" lon="30.2985"><time>2024-05-01T10:00:00Z</time></trkpt>
        <trkpt lat="59.9300" lon="30.3000"><time>2024-05-01T10:01:00Z</time></trkpt>
        <trkpt lat="59.9305" lon="30.3015"><time>2024-05-01T10:02:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(to: folder.appendingPathComponent("walk.gpx"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["validate", path])
        #expect(result.status == 0, "\(result.stderr)")
        let warning =
            "warning: \(path):4:10: regions[0].id: region \"kiosk\" can never get an exit under the \(profile) profile "
            + "from these tracks: an exit needs a fix "
        #expect(result.stderr.contains(warning) == (reason != nil), "\(result.stderr)")
        if let reason { #expect(result.stderr.contains(warning + reason + " from it;"), "\(result.stderr)") }
    }

    @Test("Under a profile without an accuracy rule no fence is too small")
    func fencesUnderIOS() throws {
        let (folder, path) = try Self.scenario(Self.smallFences.replacingOccurrences(of: "PROFILE", with: "ios-documented"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run(["validate", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("can never get an enter"), "\(result.stderr)")
    }

    @Test("A region's name is shown beside its id, on the console and in the report, never in files")
    func regionNames() throws {
        let (folder, path) = try Self.scenario(
            """
            name: Named
            regions:
              - {id: depot, name: "Depot «Nord»", circle: {lat: 59.9270, lon: 30.3200, radius: 150}}
            devices:
              - {id: anna, track: anna.gpx}

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let console = try PerimeterProcess.run(["run", path])
        #expect(console.status == 0, "\(console.stderr)")
        #expect(console.stdout.contains("anna  monitor-start   depot (Depot «Nord»)  "), "\(console.stdout)")
        let files = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(files.stdout.contains(#""region":"depot","kind":"monitor-start""#) && !files.stdout.contains("Nord"))
        let page = folder.appendingPathComponent("report.html").path
        let report = try PerimeterProcess.run(["report", path, "-o", page, "--profiles", "ideal"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<title>depot (Depot «Nord» · circle"))
    }

    @Test("A stay still open when the track ends is said, with how many")
    func openStays() throws {
        let (folder, path) = try Self.scenario(
            """
            name: Open stay
            start: 2024-05-01T10:00:00Z
            regions:
              - {id: home, circle: {lat: 59.9660, lon: 30.3110, radius: 1km}}
            devices:
              - {id: anna, track: anna.gpx, offset: 0s}
            monitor: {initialTrigger: enter}

            """.replacingOccurrences(of: "59.9660, lon: 30.3110", with: "59.9270, lon: 30.3200"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(result.status == 0, "\(result.stderr)")
        let kinds = result.stdout.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }.map { $0["kind"] as! String }
        #expect(kinds.last == "enter", "the track ends at the dark store: \(kinds)")
        #expect(
            result.stderr.contains(
                "warning: 1 stay was still open when its track ended (anna in home): no exit and no visit was written for it\n"
            ))
        #expect(result.stderr.contains(", 1 warning, "))
    }

    @Test("A region the nearest set stops watching while the device is inside is said")
    func rotationWhileInside() throws {
        // Capacity 1: a walk east through a big circle "plaza" (index 1) into a small "kiosk" (index 0)
        // inside it. In the kiosk both rank 0, the lower index wins: plaza stops while the walker is in it.
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for second in 0...600 {  // 2 m/s east along 52.5° N from 13.38° E
            let lon = 13.38 + Double(second) * 2 / (6_371_008.8 * cos(52.5 * .pi / 180)) * 180 / .pi
            gpx += String(
                format: "<trkpt lat=\"52.5\" lon=\"%.7f\"><time>2024-05-01T10:%02d:%02dZ</time></trkpt>\n", lon, second / 60,
                second % 60)
        }
        gpx += "</trkseg></trk></gpx>\n"
        try gpx.write(to: folder.appendingPathComponent("walk.gpx"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("scenario.yaml").path
        try """
        name: Rotation
        profile: ios-documented
        monitor: {capacity: 1, refreshDistance: 100, hysteresis: 0, confirmation: 0s}
        regions:
          - {id: kiosk, circle: {lat: 52.5, lon: 13.3894, radius: 80}}
          - {id: plaza, circle: {lat: 52.5, lon: 13.3865, radius: 300}}
        devices:
          - {id: walker, track: walk.gpx}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["run", path, "--sink", "jsonl:-"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let stop = try #require(events.first { $0["kind"] as? String == "monitor-stop" })
        #expect(stop["region"] as? String == "plaza")
        let time = try #require(stop["time"] as? String)
        #expect(
            result.stderr.contains(
                "warning: the monitored set moved on while a device was inside a region (walker in plaza at \(time)): monitor-stop, and the app never hears an exit or a visit for that stay (SEMANTICS §4; a larger capacity or refreshDistance keeps them)\n"
            ),
            "\(result.stderr)")
    }

    // MARK: Sink specs

    @Test("kinds= keeps only some kinds, for every sink")
    func kindsFilter() throws {
        let result = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--sink", "csv:-;kinds=visit,enter"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = result.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[3] }
        #expect(records == ["enter", "visit"])
        let console = try PerimeterProcess.run(["run", "Scenarios/lorrenzillos.yaml", "--sink", "console;kinds=dwell"])
        #expect(console.stdout.split(separator: "\n").count == 2 && console.stdout.contains("dwell"))
    }

    @Test(
        "An option a sink does not know is an error, with what it takes",
        arguments: [
            (
                "csv:-;kind=visit",
                "error: sink csv:-;kind=visit: unknown option \"kind=visit\"; did you mean kinds=? Every sink takes kinds=KIND,KIND,... after a ';' (an HTTP sink also its own options); a path cannot hold a ';'."
            ),
            (
                "jsonl:out.jsonl;colour=red",
                "error: sink jsonl:out.jsonl;colour=red: unknown option \"colour=red\". Every sink takes kinds=KIND,KIND,... after a ';' (an HTTP sink also its own options); a path cannot hold a ';'."
            ),
            (
                "csv:-;kinds=vist",
                "error: sink csv:-;kinds=vist: unknown event kind \"vist\" in kinds=; did you mean \"visit\"? The kinds are enter, exit, visit, dwell, monitor-start, monitor-stop, monitor-failed."
            ),
            (
                "console;kinds=",
                "error: sink console;kinds=: kinds= needs event kinds separated by commas, without spaces. The kinds are enter, exit, visit, dwell, monitor-start, monitor-stop, monitor-failed."
            ),
        ])
    func badSinkOptions(spec: String, message: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run(
            [
                "run", PerimeterProcess.root.appendingPathComponent("Scenarios/lorrenzillos.yaml").path,
                "--sink", spec,
            ], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file was made")
    }

    // MARK: Expectations and check

    @Test("after: {since: enter} measures from the enter; a misspelt key gets a guess")
    func expectationsSinceEnter() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try RepositoryCopy.edit(
            scenario, "expect:\n",
            """
            expect:
              - {kind: dwell, rule: Thanks for visiting, after: {atMost: 15s, since: enter}}
              - {kind: dwell, rule: Thanks for visiting, after: {atMost: 5s, since: enter}}

            """)
        let lines = try String(contentsOf: scenario, encoding: .utf8).components(separatedBy: "\n")
        let line = lines.firstIndex { $0.contains("atMost: 5s") }! + 1
        let result = try PerimeterProcess.run(["check", scenario.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "    expect[1], line \(line): expected dwell \"Thanks for visiting\" at most 5 s after the enter of its device and region; the first was at 12:02:07, 10 s after the enter at 12:01:57\n"
            ))
        #expect(result.stdout.contains("1 of 8 expectations failed") || result.stdout.contains("FAIL"))

        try RepositoryCopy.edit(scenario, "atMost: 5s, since: enter}}", "atMost: 5s, since: enter}, cuont: 1}")
        let typo = try PerimeterProcess.run(["check", scenario.path])
        #expect(typo.status == 2)
        #expect(typo.stdout.contains("expect[1].cuont: unknown key \"cuont\"; did you mean \"count\"?"))
    }

    @Test("check: a missing folder is bad input, not a scenario")
    func checkMissingFolder() throws {
        let result = try PerimeterProcess.run(["check", "Nope/", "Scenarios/lorrenzillos.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: Nope/: no such file or folder\n"))
        #expect(result.stdout.hasSuffix("1 scenario: 1 passed; 1 path not found (Nope/)\n"))
    }

    // MARK: Inputs

    @Test("A Windows path says how paths are written")
    func windowsPath() throws {
        let (folder, path) = try Self.scenario(
            """
            name: Windows
            regions: []
            devices:
              - {id: anna, track: sub\\walk.gpx}

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("anna.gpx"), to: folder.appendingPathComponent("sub/walk.gpx"))
        let result = try PerimeterProcess.run(["run", path])
        #expect(result.status == 2)
        let track = folder.appendingPathComponent("sub").path
        #expect(
            result.stderr
                == "error: \(path):4:23: devices[0].track: cannot read the track: no such file: \(folder.path)/sub\\walk.gpx; paths are written with / on every system (a backslash is part of a file name here): \(track)/walk.gpx exists\n"
        )
    }

    // MARK: README's first hour

    @Test("README's first hour: a fleet from a CSV, and a check that fails saying why")
    func firstHour() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fleet = try PerimeterProcess.run([
            "run", "Scenarios/vans-fleet.yaml", "--sink", "csv:\(folder.path)/vans-events.csv;kinds=enter,exit,visit",
        ])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        #expect(
            fleet.stderr.contains(
                "warning: 24 stays were still open when their tracks ended (van-01 in central, van-02 in central, van-03 in central, van-04 in central, van-05 in central, ...): no exit and no visit were written for them"
            ))
        let rows = try String(contentsOfFile: folder.path + "/vans-events.csv", encoding: .utf8).split(separator: "\r\n")
        #expect(Set(rows.dropFirst().map { $0.split(separator: ",")[3] }) == ["enter", "exit", "visit"])

        let check = try PerimeterProcess.run(["check", "Examples/"])
        #expect(check.status == 1)
        #expect(
            check.stdout == """
                PASS coffee customers (Examples/coffee/customers.yaml)
                PASS coffee customers, true paths (Examples/coffee/true-paths.yaml)
                PASS Rua Augusta field study (Examples/field-study/study.yaml)
                FAIL The welcome within 10 s (fails under iOS) (Examples/late-welcome.yaml)
                    expect[1], line 17: expected dwell "welcome" between 12:01:37 and 12:01:47; the nearest was at 12:02:07 (20 s after the window)
                4 scenarios: 3 passed, 1 failed

                """)
    }

    @Test("inspect says where GPS noise inflates length and speed")
    func noisyWalk() throws {
        // 10 minutes walking east at 1 m/s (600 m), a fix a second with 15 m of independent GPS error.
        let result = try PerimeterProcess.run(["inspect", "Tests/PerimeterTests/Fixtures/noisy-walk.gpx"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "  length    15.687 km (smoothed 620.9 m: GPS noise makes the raw length 25.3 times the path)\n"))
        #expect(
            result.stdout.contains(
                "  speed     average 26.19 m/s, maximum 88.14 m/s (smoothed maximum 1.86 m/s: the raw maximum is GPS noise)\n"
            ))
        let clean = try PerimeterProcess.run([
            "inspect", "Tests/GPXTests/Fixtures/conformance/georust-gpx__garmin-activity.gpx",
        ])
        #expect(
            clean.stdout.contains("  length    12.821 km\n") && clean.stdout.contains("maximum 4.54 m/s\n"),
            "a clean ride is not flagged")
        let json = try PerimeterProcess.run(["inspect", "--json", "Tests/PerimeterTests/Fixtures/noisy-walk.gpx"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["smoothedLength"] as? Double == 620.887 && object["noiseInflatesLength"] as? Bool == true)
        #expect(object["smoothedMaximumSpeed"] as? Double == 1.864 && object["noiseInflatesSpeed"] as? Bool == true)
    }
}
