import Draws
import FixTables
import Time

/// A random fix table from a seed, for comparing reads in pieces with the read on one thread: several
/// devices interleaved, times that go back and repeat, ISO 8601 and numeric times, coordinates out of
/// range, accuracy present, empty or absent, CRLF and LF, blank lines; CSV with its columns in any order
/// and an extra one, quoted or not (`quoted`: some fields in quotes, one holding a line end); JSON Lines
/// with escapes, strings holding numbers and extra members of any shape. `bad` rows are refused rows
/// put in at random places.
struct RandomFixTable {
    var format: FixTableFormat
    var quoted: Bool
    var text = ""
    private var random: SplitMix64
    /// Per device: its last time, in seconds.
    private var times: [Int]

    init(seed: UInt64, format: FixTableFormat, rows: Int, bad: Int = 0) {
        var random = SplitMix64(seed: seed)
        self.format = format
        quoted = format == .csv && seed % 3 == 0
        times = (0..<Int.random(in: 1...12, using: &random)).map { _ in
            1_714_554_000 + Int.random(in: 0...50, using: &random)
        }
        self.random = random
        var badRows = Set<Int>()
        for _ in 0..<bad { badRows.insert(Int.random(in: 0..<rows, using: &self.random)) }
        if format == .csv { text += header() }
        for row in 0..<rows {
            if Int.random(in: 0..<20, using: &random) == 0 { text += lineEnd() }  // a blank line
            text += badRows.contains(row) ? badRow() : self.row()
        }
    }

    private var columns: [String] = []

    private mutating func lineEnd() -> String { Bool.random(using: &random) ? "\r\n" : "\n" }

    private mutating func header() -> String {
        columns = ["device", "time", "lat", "lon", "note"] + (Bool.random(using: &random) ? ["accuracy"] : [])
        columns.shuffle(using: &random)
        return columns.joined(separator: ",") + lineEnd()
    }

    /// A valid row's values, as text (nil: absent or null).
    private mutating func values() -> [String: String?] {
        let device = Int.random(in: 0..<times.count, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: times[device] -= Int.random(in: 1...5, using: &random)  // goes back
        case 1: break  // the same time again
        default: times[device] += Int.random(in: 1...30, using: &random)
        }
        let seconds = times[device]
        let time =
            Bool.random(using: &random)
            ? Timestamp(microsecondsSince1970: Int64(seconds) * 1_000_000).iso8601
            : "\(seconds).\(Int.random(in: 0...9, using: &random))"
        var lat = Double(Int.random(in: -89_000...89_000, using: &random)) / 1000
        let lon = Double(Int.random(in: -179_000...179_000, using: &random)) / 1000
        if Int.random(in: 0..<25, using: &random) == 0 { lat = 95.5 }  // out of range: dropped
        let accuracy: String? =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: nil
            case 1: ""
            default: "\(Int.random(in: 0...40, using: &random))"
            }
        return ["device": "dev-\(device)", "time": time, "lat": "\(lat)", "lon": "\(lon)", "accuracy": accuracy]
    }

    private mutating func row() -> String {
        let values = values()
        return format == .csv ? csv(values) : json(values)
    }

    private mutating func csv(_ values: [String: String?]) -> String {
        let fields = columns.map { name -> String in
            if name == "note" {
                guard quoted else { return Int.random(in: 0..<4, using: &random) == 0 ? "a note" : "" }
                return Int.random(in: 0..<8, using: &random) == 0 ? "\"a \"\"note\"\",\r\nover two lines\"" : ""
            }
            let value = (values[name] ?? nil) ?? ""
            return quoted && Bool.random(using: &random) ? "\"\(value)\"" : value
        }
        return fields.joined(separator: ",") + lineEnd()
    }

    private mutating func json(_ values: [String: String?]) -> String {
        var members: [String] = []
        for key in ["device", "time", "lat", "lon", "accuracy"].shuffled(using: &random) {
            guard let value = values[key] else { continue }
            switch (key, value) {
            case ("accuracy", nil): if Bool.random(using: &random) { members.append("\"accuracy\":null") }
            case ("accuracy", ""): break
            case ("device", let id?): members.append("\"device\":\"\(id.replacingOccurrences(of: "-", with: "\\u002d"))\"")
            case (_, let text?):  // a number, or a string holding one; an ISO 8601 time is a string
                let string = text.contains(":") || Bool.random(using: &random)
                members.append("\"\(key)\":" + (string ? "\"\(text)\"" : text))
            default: break
            }
        }
        if Bool.random(using: &random) { members.insert(#""meta":{"a":[1,{"b":"}\n"}],"c":"x\"y"}"#, at: members.count / 2) }
        return "{" + members.joined(separator: ",") + "}" + lineEnd()
    }

    /// A row refused for one of several reasons.
    private mutating func badRow() -> String {
        var values = values()
        switch Int.random(in: 0..<5, using: &random) {
        case 0: values["lat"] = "north"
        case 1: values["time"] = "yesterday"
        case 2: values["lon"] = nil
        case 3: values["accuracy"] = "-3"
        default: return format == .csv ? "x,\ry" + lineEnd() : "{\"device\":" + lineEnd()
        }
        if format == .csv, values["accuracy"] == "-3", !columns.contains("accuracy") { values["lat"] = "" }
        return format == .csv ? csv(values) : json(values)
    }
}
