import FixTables
import Testing

/// `FixTableStream`: a fix table device by device, each handed over once its rows end.
@Suite("FixTableStream")
struct FixTableStreamTests {
    /// All the devices of `text`, as (id, times as seconds past 09:00:00, lines), and the warnings.
    func devices(_ text: String, name: String = "fixes.csv") throws -> (devices: [String], warnings: [String]) {
        var stream = try FixTableStream(path: table(text, name: name))
        var out: [String] = []
        var warnings: [String] = []
        while let device = try stream.next() {
            let seconds = device.fixes.map {
                String(($0.time.microsecondsSince1970 - at("2024-05-01T09:00:00Z").microsecondsSince1970) / 1_000_000)
            }
            out.append(
                "\(device.id) " + seconds.joined(separator: ",") + " @"
                    + device.fixes.map { String($0.line) }.joined(separator: ","))
            warnings += stream.takeWarnings().map(\.description)
        }
        #expect(try stream.next() == nil)
        return (out, warnings)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var text: String
        var name = "fixes.csv"
        var devices: [String]
        var warnings = 0
        var testDescription: String { id }
    }

    static let cases = [
        Case(
            id: "two devices, one after the other",
            text:
                "device,time,lat,lon\na,2024-05-01T09:00:00Z,1,2\na,2024-05-01T09:00:10Z,1,2\nb,2024-05-01T09:00:05Z,1,2\n",
            devices: ["a 0,10 @2,3", "b 5 @4"]),
        Case(
            id: "equal times: the later row is kept, with a warning",
            text:
                "device,time,lat,lon\na,2024-05-01T09:00:00Z,1,2\na,2024-05-01T09:00:00Z,1,3\na,2024-05-01T09:00:01Z,1,3\n",
            devices: ["a 0,1 @3,4"], warnings: 1),
        Case(
            id: "a position out of range is dropped, the device goes on",
            text: "device,time,lat,lon\na,2024-05-01T09:00:00Z,91,2\na,2024-05-01T09:00:01Z,1,2\n",
            devices: ["a 1 @3"], warnings: 1),
        Case(
            id: "a header alone: no device",
            text: "device,time,lat,lon\n", devices: []),
        Case(
            id: "JSON Lines, numbers for times",
            text:
                "{\"device\":\"a\",\"time\":1714554000,\"lat\":1,\"lon\":2}\n\n{\"device\":\"b\",\"time\":\"2024-05-01T09:00:03Z\",\"lat\":1,\"lon\":2}\n",
            name: "fixes.jsonl", devices: ["a 0 @1", "b 3 @3"]),
    ]

    @Test("devices are handed over in table order, each with its own rows", arguments: cases)
    func handedOver(_ c: Case) throws {
        let (devices, warnings) = try devices(c.text, name: c.name)
        #expect(devices == c.devices)
        #expect(warnings.count == c.warnings, "\(warnings)")
    }

    @Test("a device that comes back is refused after the device before it is handed over")
    func comesBack() throws {
        var stream = try FixTableStream(path: table("device,time,lat,lon\na,1,1,1\nb,2,1,1\na,3,1,1\n"))
        #expect(try stream.next()?.id == "a")
        #expect(try stream.next()?.id == "b")
        let error = #expect(throws: FixTableError.self) { try stream.next() }
        #expect(error?.line == 4 && error?.column == 1)
        #expect(error?.message.contains("its rows ended at line 2") == true)
        #expect(try stream.next() == nil)
    }
}
