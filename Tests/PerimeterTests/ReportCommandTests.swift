import Foundation
import TestSupport
import Testing

@Suite("perimeter report, end to end")
struct ReportCommandTests {
    @Test("A page is written, whole, and only then")
    func writesThePage() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html").path
        let result = try PerimeterProcess.run([
            "report", "Scenarios/restaurant-welcome.yaml", "-o", page, "--runs", "20",
            "--profiles", "ios-documented,android-documented,ideal",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(html.contains("data-regions=\"1\" data-tracks=\"1\" data-events=\"12\""))
        #expect(html.contains("over 20 Monte Carlo runs (noise seeds from 1)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.html"], "no partial file left")
    }

    @Test(arguments: [
        CommandRefusal(
            arguments: ["report", "Scenarios/lorrenzillos.yaml", "-o", "/tmp/x.html", "--runs", "5"], status: 2,
            message:
                "error: Scenarios/lorrenzillos.yaml: noise: a Monte Carlo batch varies the noise seed, and this scenario has no noise"
        ),
        CommandRefusal(
            arguments: [
                "report", "Scenarios/lorrenzillos.yaml", "-o", "/tmp/x.html", "--tiles", "https://tiles.example/a.png",
            ], status: 64,
            message:
                "--tiles: expected an XYZ URL template with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png, got \"https://tiles.example/a.png\"."
        ),
        CommandRefusal(
            arguments: ["report", "Scenarios/lorrenzillos.yaml", "-o", "/nonexistent-folder/x.html"], status: 3,
            message: "error: cannot write the report /nonexistent-folder/x.html: "),
        CommandRefusal(
            arguments: ["report", "Scenarios/lorrenzillos.yaml"], status: 64,
            message: "Missing expected argument '--output <file>'"),
        CommandRefusal(
            arguments: ["report", "Scenarios/lorrenzillos.yaml", "-o", "/tmp/x.html", "--profiles", "ios,iphone"],
            status: 64,
            message:
                "--profiles: unknown profile \"iphone\"; the profiles are ios, ios-gps, ios-terminated, android, android-background, android-idle, ideal, ios-documented, android-documented, android-background-documented or profile files, separated by commas."
        ),
    ])
    func refusals(_ c: CommandRefusal) throws {
        let result = try PerimeterProcess.run(c.arguments)
        #expect(result.status == c.status, "\(result.stderr)")
        #expect(result.stderr.contains(c.message), "\(result.stderr)")
    }
}
