import Foundation
import TestSupport
import Testing

/// Text from an input reaches a person escaped: an ESC, OSC, CSI, C1, DEL or BEL in a CSV header or
/// field, a YAML key, a device id, a GPX value, a scenario's name or a file's name is shown as `\u001b`
/// and the like, never as the byte that would retitle, clear or recolour the terminal. The bytes the
/// built `perimeter` writes are read as they are (through files, not decoded strings).
@Suite("Control characters from inputs are escaped in messages")
struct ControlCharacterTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        /// Writes the case's files into the folder; returns the arguments after `perimeter`.
        var make: @Sendable (URL) throws -> [String]
        var status: Int32
        /// What standard output and standard error together must contain: the input shown escaped.
        var shown: String
        var testDescription: String { id }
    }

    /// A terminal's title set (OSC 0, ended by BEL), the screen cleared (CSI 2J), red (CSI 31m), C1's CSI
    /// (U+009B), DEL.
    static let osc = "\u{1b}]0;pwned\u{07}", clear = "\u{1b}[2J", red = "\u{1b}[31m", c1 = "\u{9b}2J", del = "\u{7f}"

    static let fleet = "device,time,lat,lon\nphone,2016-01-10T12:00:00Z,37.7,-121.76\n"

    static let cases: [Case] = [
        .init(
            id: "a CSV header",
            make: { folder in
                try Inputs.write(
                    "device,time,la\(osc)t,lon\nphone,2016-01-10T12:00:00Z,37.7,-121.76\n", "fleet.csv", in: folder)
                return ["inspect", "fleet.csv"]
            }, status: 2, shown: #""la\u001b]0;pwned\u0007t""#),
        .init(
            id: "a CSV field",
            make: { folder in
                try Inputs.write(
                    "device,time,lat,lon\nphone,2016-01-10T12:00:00Z,37\(clear)\(c1),-121.76\n", "fleet.csv", in: folder)
                return ["inspect", "fleet.csv"]
            }, status: 2, shown: #""37\u001b[2J\u009b2J""#),
        .init(
            id: "a CSV field of raw bytes that are not UTF-8 (C1's CSI as one byte)",
            make: { folder in
                try Data(
                    Array("device,time,lat,lon\nphone,2016-01-10T12:00:00Z,37".utf8) + [0x9B, 0x32, 0x4A]
                        + Array(",-121.76\n".utf8)
                ).write(to: folder.appendingPathComponent("fleet.csv"))
                return ["inspect", "fleet.csv"]
            }, status: 2, shown: "is \"37"),
        .init(
            id: "a device id in inspect's table",
            make: { folder in
                try Inputs.write(
                    "device,time,lat,lon\nph\(red)o\(del)ne\(c1),2016-01-10T12:00:00Z,37.7,-121.76\n", "fleet.csv",
                    in: folder)
                return ["inspect", "fleet.csv"]
            }, status: 0, shown: #"ph\u001b[31mo\u007fne\u009b2J: 1 fix"#),
        .init(
            id: "a YAML key",
            make: { folder in
                try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                _ = try Inputs.scenario(in: folder, extra: "\"na\\e]0;pwned\\ame\": x\n")
                return ["validate", "scenario.yaml"]
            }, status: 2, shown: #"na\u001b]0;pwned\u0007me"#),
        .init(
            id: "a YAML value",
            make: { folder in
                try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                _ = try Inputs.scenario(in: folder, extra: "profile: \"io\\x9b2Js\"\n")
                return ["validate", "scenario.yaml"]
            }, status: 2, shown: #"io\u009b2Js"#),
        .init(
            id: "a GPX attribute",
            make: { folder in
                try Inputs.write(Inputs.gpx("<wpt lat=\"1\(c1)\(del)\" lon=\"2\"/>"), "walk.gpx", in: folder)
                return ["inspect", "walk.gpx"]
            }, status: 2, shown: #"1\u009b2J\u007f"#),
        .init(
            id: "a scenario's name in the run's summary",
            make: { folder in
                try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                let arguments = try Inputs.scenario(in: folder)
                let text = try String(contentsOf: folder.appendingPathComponent("scenario.yaml"), encoding: .utf8)
                try text.replacingOccurrences(of: "name: hostile", with: "name: \"host\\e[2Jile\\a\"")
                    .write(to: folder.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
                return arguments
            }, status: 0, shown: #"perimeter: host\u001b[2Jile\u0007 (ideal): 1 device"#),
        .init(
            id: "a file's name in validate's list",
            make: { folder in
                try Inputs.write(Inputs.gpx(Inputs.walk()), "walk\(osc).gpx", in: folder)
                return ["validate", "."]
            }, status: 0, shown: #"ok: ./walk\u001b]0;pwned\u0007.gpx"#),
    ]

    @Test("No control byte from an input reaches the terminal", arguments: cases)
    func escaped(_ c: Case) throws {
        let folder = try TemporaryFolders.make("control")
        let arguments = try c.make(folder)
        let quoted = ([PerimeterProcess.executable.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        try shell("\(quoted) > out.txt 2> err.txt; echo $? > status.txt", in: folder)
        func read(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
        let status = String(decoding: try read("status.txt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let written = try read("out.txt") + read("err.txt")
        let text = String(decoding: written, as: UTF8.self)
        #expect(status == String(c.status), "\(text)")
        #expect(text.contains(c.shown), "\(text)")
        // Valid UTF-8 (a lone 0x9B would be C1's CSI to some terminals), and no control character but the
        // messages' own line ends and tabs.
        #expect(String(validating: written, as: UTF8.self) != nil, "\(Array(written))")
        let controls = text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
        }
        #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) }) in \(text.debugDescription)")
    }

    /// Issue 37 G11: a raw line end in an input would forge a line of a message (`FAIL` made to read
    /// `PASS`, an `error:` added). Each input holds "\nFORGED" and the output must show it escaped.
    struct ForgedLine: CustomTestStringConvertible, Sendable {
        var id: String
        /// Writes the files; returns the arguments, and a file for standard input or nil.
        var make: @Sendable (URL) throws -> (arguments: [String], standardInput: String?)
        var status: Int32
        var testDescription: String { id }
    }

    /// A one-device scenario in `folder` whose golden log holds the event `line` instead of the run's.
    static func checkedScenario(in folder: URL, golden: String) throws -> [String] {
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
        _ = try Inputs.scenario(in: folder)
        try Inputs.write(golden, "scenario.events.jsonl", in: folder)
        return ["check", "scenario.yaml"]
    }

    static let forgedLines: [ForgedLine] = [
        .init(
            id: "stream's time-order error, a device id from standard input",
            make: { folder in
                try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
                _ = try Inputs.scenario(in: folder)
                let device = "ph\\nFORGED"
                try Inputs.write(
                    "{\"device\":\"\(device)\",\"time\":\"2016-01-10T12:00:10Z\",\"lat\":37.7,\"lon\":-121.76}\n"
                        + "{\"device\":\"\(device)\",\"time\":\"2016-01-10T12:00:00Z\",\"lat\":37.7,\"lon\":-121.76}\n",
                    "fleet.jsonl", in: folder)
                return (
                    ["stream", "scenario.yaml", "--format", "jsonl", "--start", "2016-01-10T12:00:00Z"],
                    folder.appendingPathComponent("fleet.jsonl").path
                )
            }, status: 2),
        .init(
            id: "check's diff, ids from the golden log",
            make: { folder in
                let line =
                    "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"phone\\nFORGED\",\"region\":\"cafe\\nFORGED\","
                    + "\"kind\":\"enter\",\"lat\":37.7,\"lon\":-121.76,\"distance\":-1,\"crossedAt\":\"2016-01-10T12:00:00.000Z\"}\n"
                return (try checkedScenario(in: folder, golden: line), nil)
            }, status: 1),
        .init(
            id: "check's diff header, paths and the profile from the inputs record",
            make: { folder in
                let arguments = try checkedScenario(in: folder, golden: "")
                try Inputs.write(
                    "{\"scenario\": \"0\", \"profile\": \"ios\\nFORGED\", \"files\": [{\"kind\": \"track\", "
                        + "\"path\": \"gone.gpx\\nFORGED\", \"sha256\": \"0\"}]}\n",
                    "scenario.events.inputs.json", in: folder)
                return (arguments, nil)
            }, status: 1),
        .init(
            id: "profile show, a profile file's name, source and base",
            make: { folder in
                try Inputs.write(
                    "name: \"mine\\nFORGED\"\nbase: ios\nsource: \"walk\\nFORGED\"\n",
                    "mine.profile.yaml", in: folder)
                return (["profile", "show", "mine.profile.yaml"], nil)
            }, status: 0),
    ]

    @Test("No line end from an input forges a line of a message", arguments: forgedLines)
    func forged(_ c: ForgedLine) throws {
        let folder = try TemporaryFolders.make("forged")
        let (arguments, input) = try c.make(folder)
        let result = try PerimeterProcess.run(arguments, in: folder, standardInput: input)
        let text = result.stdout + result.stderr
        #expect(result.status == c.status, "\(text)")
        #expect(text.contains("\\nFORGED"), "\(text)")
        let forged = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("FORGED") }
        #expect(forged.isEmpty, "\(text)")
    }
}
