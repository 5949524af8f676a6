import Foundation
import TestSupport
import Testing

/// Issue 49 H5: a value from a file that is not the scenario's own text is quoted by its first 6
/// characters and its length (`TerminalText.excerpt`), so that a secrets file read as the wrong kind
/// shows no key. A 40-character quote was exactly an AWS secret key or a classic GitHub token: each case
/// puts one where a message quotes a value, and no 20 characters of it may reach standard error, standard
/// output or `check --junit`.
extension HostileInputTests {
    struct SecretCase: CustomTestStringConvertible, Sendable {
        var id: String
        /// Writes the case's files into the folder (`secret` is the value to hide); returns the arguments.
        var make: @Sendable (_ folder: URL, _ secret: String) throws -> [String]
        /// What the message shows instead (`SECRET` stands for the secret's first 6 characters).
        var message: String
        var testDescription: String { id }
    }

    /// An AWS secret access key (AWS's documented example) and a classic GitHub token: 40 characters each.
    static let secrets = ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"]

    /// The walk's scenario with `extra` lines, `devices` and `regions`, its track written beside it, then
    /// `files` (name and text) written over; `validate`'s arguments for it.
    @discardableResult
    static func secretScenario(
        in folder: URL, extra: String = "", devices: [String] = ["{id: phone, track: track.gpx}"],
        regions: [String] = [Inputs.circle], files: [(name: String, text: String)] = []
    ) throws -> [String] {
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
        _ = try Inputs.scenario(in: folder, regions: regions, devices: devices, extra: extra)
        for file in files { try Inputs.write(file.text, file.name, in: folder) }
        return ["validate", "scenario.yaml"]
    }

    static let secretCases: [SecretCase] = [
        .init(
            id: "a secrets file as the profile",
            make: { folder, secret in
                try secretScenario(in: folder, extra: "profile: secret.txt\n", files: [("secret.txt", secret + "\n")])
            }, message: "got \"SECRET…\" (40 characters)"),
        .init(
            id: "check --junit, a secrets file as the profile",
            make: { folder, secret in
                try secretScenario(in: folder, extra: "profile: secret.txt\n", files: [("secret.txt", secret + "\n")])
                return ["check", "--junit", "junit.xml", "scenario.yaml"]
            }, message: "got \"SECRET…\" (40 characters)"),
        .init(
            id: "a secrets file as a fix table: its header",
            make: { folder, secret in
                let header = "AKIAIOSFODNN7EXAMPLE,\(secret)\n"
                return try secretScenario(in: folder, devices: ["{fixes: fleet.csv}"], files: [("fleet.csv", header)])
            }, message: "(it has \"AKIAIO…\" (20 characters), \"SECRET…\" (40 characters))"),
        .init(
            id: "a fix table's cell",
            make: { folder, secret in
                let table = "device,time,lat,lon\nphone,2016-01-10T12:00:00Z,\(secret),-121.76\n"
                return try secretScenario(in: folder, devices: ["{fixes: fleet.csv}"], files: [("fleet.csv", table)])
            }, message: "\"SECRET…\" (40 characters)"),
        .init(
            id: "a GPX point's lat",
            make: { folder, secret in
                let point = "<trk><trkseg><trkpt lat=\"\(secret)\" lon=\"1\"/></trkseg></trk>"
                return try secretScenario(in: folder, files: [("track.gpx", Inputs.gpx(point))])
            }, message: "lat=\"SECRET…\" (40 characters), which is not a number"),
        .init(
            id: "a GPX point's time",
            make: { folder, secret in
                let point = "<trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>\(secret)</time></trkpt></trkseg></trk>"
                return try secretScenario(in: folder, files: [("track.gpx", Inputs.gpx(point))])
            }, message: "<time> holds \"SECRET…\" (40 characters), which is not an ISO 8601 time"),
        .init(
            id: "a GeoJSON feature's radius",
            make: { folder, secret in
                let feature =
                    "{\"type\":\"Feature\",\"properties\":{\"id\":\"a\",\"radius\":\"\(secret)\"},"
                    + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[-121.76,37.7]}}"
                let file = "{\"type\":\"FeatureCollection\",\"features\":[\(feature)]}"
                return try secretScenario(
                    in: folder, regions: ["{geojson: zones.geojson}"], files: [("zones.geojson", file)])
            }, message: "got \"SECRET…\" (40 characters)"),
        .init(
            id: "a field log's time",
            make: { folder, secret in
                try calibrate("device,region,kind,time\nphone,cafe,enter,\(secret)\n", in: folder)
            }, message: "\"SECRET…\" (40 characters)"),
        .init(
            id: "check --junit, a golden log's time",
            make: { folder, secret in
                let line =
                    "{\"time\":\"\(secret)\",\"device\":\"phone\",\"region\":\"cafe\",\"kind\":\"monitor-start\","
                    + "\"lat\":1,\"lon\":2,\"distance\":3}\n"
                try secretScenario(in: folder, files: [("scenario.events.jsonl", line)])
                return ["check", "--junit", "junit.xml", "scenario.yaml"]
            }, message: "\"SECRET…\" (40 characters)"),
    ]

    @Test(
        "no 20 characters of a secret in another file reach a message or JUnit",
        arguments: secretCases, secrets)
    func secretNotQuoted(_ c: SecretCase, secret: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = try c.make(folder, secret)
        let result = try PerimeterProcess.run(arguments, in: folder)
        var shown = result.stdout + result.stderr
        if let junit = try? String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8) {
            #expect(junit.contains("<failure") || junit.contains("<error"), "\(junit)")
            shown += junit
        }
        #expect(result.status == 2, "\(shown)")
        let expected = c.message.replacingOccurrences(of: "SECRET", with: String(secret.prefix(6)))
        #expect(shown.contains(expected), "\(shown)")
        let characters = Array(secret)
        for start in 0...(characters.count - 20) {
            let piece = String(characters[start..<start + 20])
            #expect(!shown.contains(piece), "\(piece) shown: \(shown)")
        }
    }
}
