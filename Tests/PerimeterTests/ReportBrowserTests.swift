import Foundation
import TestSupport
import Testing

/// What `Scripts/browser-check.py` saw of a page in headless Chromium, offline.
struct BrowserCheck: Decodable {
    struct Tooltip: Decodable {
        var display: String
        var text: String
    }

    var regions: Int
    var tracks: Int
    var events: Int
    var eventsByProfile: [String: Int]
    var tooltip: Tooltip?
    var requests: [String]
    var errors: [String]
    var firstPaint: Double?
    var firstContentfulPaint: Double?
    var load: Double?
    var nodes: Int
    /// `calibrate --report`'s charts, and their curves whose path has a length.
    var charts: Int
    var curves: Int
    /// `report`'s outcomes table (`#outcomes`): its rows, whether it is laid out, and its text alternative.
    var outcomeRows: Int
    var outcomesVisible: Bool
    var outcomesText: String
    /// `report`'s summary card of the outcomes: its lines' text (absent from other pages' checks).
    var summaryLines: [String]?
    /// What the fit button framed (`FIT_CHECK`): the last device picked, a region clicked, then everything.
    struct Fit: Decodable {
        var device: String?
        var holdsTrack: Bool?
        var trackShare: Double?
        var region: String?
        var holdsRegion: Bool?
        var regionShare: Double?
        var backHome: Bool
    }

    var fit: Fit?
    var screenshotColours: Int?

    /// Opens `page` in Chromium (which `.ci/run` installs; the script says how when it is missing).
    static func run(_ page: String, screenshot: String) throws -> BrowserCheck {
        let result = try PerimeterProcess.run(
            ["Scripts/browser-check.py", page, "--screenshot", screenshot, "--timeout", "60"],
            executable: "/usr/bin/env", prefix: ["python3"])
        try #require(result.status == 0, "browser-check failed: \(result.stderr)")
        return try JSONDecoder().decode(BrowserCheck.self, from: Data(result.stdout.utf8))
    }
}

/// `perimeter report`'s pages in a real browser: every shape and event of the scenario is on the page,
/// hovering a marker shows its event, nothing leaves the page, nothing fails, the picture is not blank.
@Suite("perimeter report in headless Chromium")
struct ReportBrowserTests {
    /// The scenario's own numbers, from `perimeter run` under each profile (JSON Lines): regions and
    /// devices from ideal's monitor-start events (it watches every region from each device's first
    /// sample), events of the kinds drawn.
    static func expected(
        _ scenario: String, profiles: [String]
    ) throws -> (regions: Int, devices: Int, events: [String: Int]) {
        func kinds(_ profile: String) throws -> [[String: Any]] {
            let run = try PerimeterProcess.run(["run", scenario, "--profile", profile, "--sink", "jsonl:-", "--quiet"])
            try #require(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map {
                try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
        }
        let ideal = try kinds("ideal").filter { $0["kind"] as? String == "monitor-start" }
        var events: [String: Int] = [:]
        for profile in profiles {
            events[profile] = try kinds(profile).filter {
                ["enter", "exit", "dwell", "visit"].contains($0["kind"] as? String ?? "")
            }.count
        }
        return (Set(ideal.map { $0["region"] as! String }).count, Set(ideal.map { $0["device"] as! String }).count, events)
    }

    @Test(arguments: [
        ["Scenarios/restaurant-welcome.yaml", "--runs", "20"],
        ["Scenarios/groser-zones.yaml"],
        ["Scenarios/lodeals-static.yaml", "--profiles", "ios,android-background,ideal"],
    ])
    func everyShapeAndEventIsOnThePage(arguments: [String]) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html").path
        let made = try PerimeterProcess.run(["report"] + arguments + ["-o", page])
        try #require(made.status == 0, "\(made.stderr)")
        let profiles =
            arguments.firstIndex(of: "--profiles").map { arguments[$0 + 1].split(separator: ",").map(String.init) }
            ?? ["ios", "android", "ideal"]
        let want = try Self.expected(arguments[0], profiles: profiles)
        let seen = try BrowserCheck.run(page, screenshot: folder.appendingPathComponent("page.png").path)
        #expect(seen.regions == want.regions)
        #expect(seen.tracks == want.devices)
        #expect(seen.eventsByProfile == want.events)
        #expect(seen.events == want.events.values.reduce(0, +))
        let tooltip = try #require(seen.tooltip)
        #expect(tooltip.display == "block")
        #expect(tooltip.text.contains("time 20") && tooltip.text.contains("region ") && tooltip.text.contains("distance "))
        #expect(seen.requests.isEmpty, "nothing leaves the page: \(seen.requests)")
        #expect(seen.errors.isEmpty, "\(seen.errors)")
        // The outcomes: a row per profile for each rule and each region's enter and visit, and the same as text.
        let rules = try String(
            contentsOfFile: PerimeterProcess.root.appendingPathComponent(arguments[0]).path, encoding: .utf8
        )
        .components(separatedBy: "\n").filter { $0.contains("dwell:") && $0.contains("name:") }.count
        #expect(seen.outcomeRows == (rules + 2 * want.regions) * profiles.count)
        #expect(seen.outcomesVisible)
        #expect(seen.outcomesText.contains("truth") && seen.outcomesText.contains("\(profiles[0])"))
        #expect((seen.screenshotColours ?? 0) > 20, "the picture is not blank")
        #expect((seen.firstContentfulPaint ?? 10_000) < 1_000, "it opens in under a second")
        // The summary card (SEMANTICS §10): a line per outcome, its truth and each profile's median count.
        let summary = try #require(seen.summaryLines)
        #expect(summary.count == min(6, rules + 2 * want.regions))
        #expect(summary.allSatisfy { line in line.contains(": truth ") && profiles.allSatisfy { line.contains($0 + " ") } })
        // The fit button frames the region clicked (and with several devices, the device picked), then everything.
        let fit = try #require(seen.fit)
        #expect(fit.holdsRegion == true && (fit.regionShare ?? 1) < 1, "\(fit)")
        if want.devices > 1 { #expect(fit.holdsTrack == true && (fit.trackShare ?? 1) < 1, "\(fit)") }
        #expect(fit.backHome)
    }

    @Test("Ids with markup, quotes and non-ASCII appear as text")
    func hostileIds() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: PerimeterProcess.root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx"),
            to: folder.appendingPathComponent("visit.gpx"))
        let scenario = folder.appendingPathComponent("hostile.yaml").path
        try """
        name: "<script>alert('name')</script>"
        start: 2016-01-10T12:00:00Z
        regions:
          - id: "<img src=x onerror=alert(1)> café \\"q\\" 'ü'"
            circle: {lat: 37.703026, lon: -121.759735, radius: 300}
        devices:
          - {id: "</script><b>phone</b>", track: visit.gpx, pace: 1}

        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("report.html").path
        let made = try PerimeterProcess.run(["report", scenario, "-o", page, "--profiles", "ideal"])
        try #require(made.status == 0, "\(made.stderr)")
        let seen = try BrowserCheck.run(page, screenshot: folder.appendingPathComponent("page.png").path)
        #expect(
            seen.errors.isEmpty && seen.requests.isEmpty,
            "no script ran, no image was fetched: \(seen.errors) \(seen.requests)")
        #expect(
            seen.regions == 1 && seen.tracks == 1 && seen.events == 3,
            "enter, exit and visit: the scenario has no dwell rule")
        let tooltip = try #require(seen.tooltip)
        #expect(tooltip.text.contains("region <img src=x onerror=alert(1)> café \"q\" 'ü'"))
        #expect(tooltip.text.contains("device </script><b>phone</b>"))
    }

    @Test("--timezone: the page shows times on that zone's clocks, by the browser's own tz data")
    func timeZone() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html").path
        let made = try PerimeterProcess.run([
            "report", "Scenarios/lorrenzillos.yaml", "-o", page, "--profiles", "ideal",
            "--timezone", "America/Los_Angeles",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("times on America/Los_Angeles clocks"))
        let seen = try BrowserCheck.run(page, screenshot: folder.appendingPathComponent("page.png").path)
        #expect(seen.errors.isEmpty, "\(seen.errors)")
        // The restaurant's run is on 2016-01-10 from 12:00 UTC: 04:00 in Los Angeles (PST, −8 h).
        let tooltip = try #require(seen.tooltip)
        #expect(tooltip.text.contains("time 2016-01-10T12:0"), "the event's own time stays UTC: \(tooltip.text)")
        #expect(
            tooltip.text.contains("(2016-01-10T04:0") && tooltip.text.contains(" America/Los_Angeles)"), "\(tooltip.text)")
    }

    @Test("--tiles: the page asks for the XYZ tiles that cover the map, and nothing else")
    func tiles() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html").path
        let made = try PerimeterProcess.run([
            "report", "Scenarios/lorrenzillos.yaml", "-o", page,
            "--tiles", "https://tiles.invalid/{z}/{x}/{y}.png",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let seen = try BrowserCheck.run(page, screenshot: folder.appendingPathComponent("page.png").path)
        #expect(!seen.requests.isEmpty)
        // Lorrenzillo's is at 37.70° N, 121.76° W: at zoom z the tile column is ⌊(lon + 180) / 360 · 2^z⌋.
        for url in seen.requests {
            let parts = try #require(url.wholeMatch(of: #/https://tiles\.invalid/(\d+)/(\d+)/(\d+)\.png/#), "\(url)")
            let z = Double(Int(parts.1)!), x = Double(Int(parts.2)!)
            #expect(abs(x - ((-121.76 + 180) / 360 * pow(2, z)).rounded(.down)) <= 3, "\(url)")
        }
    }
}
