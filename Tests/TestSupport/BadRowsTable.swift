/// A fix table with bad rows among its good ones, for the tests of a table's problems reported all at
/// once (`FixTablesTests/RowProblemsTests.swift`, `PerimeterTests/RowProblemsCommandTests.swift`): a
/// clean table with rows of several kinds of problem put in between its rows, and the lines they are on.
public struct BadRowsTable: Sendable {
    /// The table with its bad rows.
    public var text: String
    /// The table without them: the same good rows in the same order.
    public var clean: String
    /// The line of each bad row, in file order (1-based, the header on line 1 for CSV).
    public var badLines: [Int]

    /// The bad CSV rows, in turn: an unreadable lat, time and accuracy, a missing lon, a field too many and
    /// too few (columns device,time,lat,lon,accuracy). `device` and `time` are a good row's.
    static func csvRow(_ kind: Int, device: Substring, time: Substring) -> String {
        switch kind % 6 {
        case 0: "\(device),\(time),north,30.32,12"
        case 1: "\(device),yesterday,59.92,30.32,12"
        case 2: "\(device),\(time),59.92,30.32,-3"
        case 3: "\(device),\(time),59.92,,12"
        case 4: "\(device),\(time),59.92,30.32,12,extra"
        default: "\(device),\(time),59.92"
        }
    }

    /// `clean` (a CSV whose header is device,time,lat,lon,accuracy) with `count` bad rows, one after every
    /// `every` of its rows.
    public static func csv(_ clean: String, count: Int = 25, every: Int = 300) -> BadRowsTable {
        let rows = clean.split(separator: "\n")
        var lines = [String(rows[0])], bad: [Int] = []
        for (index, row) in rows.dropFirst().enumerated() {
            lines.append(String(row))
            if (index + 1) % every == 0, bad.count < count {
                let fields = row.split(separator: ",")
                lines.append(csvRow(bad.count, device: fields[0], time: fields[1]))
                bad.append(lines.count)
            }
        }
        return BadRowsTable(text: lines.joined(separator: "\n") + "\n", clean: clean, badLines: bad)
    }

    /// The same table as JSON Lines (`clean`'s rows as objects), its bad lines of other kinds: not JSON,
    /// a time that is not one, a lat that is a word, no lon, an accuracy below 0.
    public static func jsonLines(_ clean: String, count: Int = 25, every: Int = 300) -> BadRowsTable {
        func object(_ f: [Substring]) -> String {
            #"{"device":"\#(f[0])","time":"\#(f[1])","lat":\#(f[2]),"lon":\#(f[3]),"accuracy":\#(f[4])}"#
        }
        let rows = clean.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        var lines: [String] = [], bad: [Int] = []
        for (index, fields) in rows.enumerated() {
            lines.append(object(fields))
            if (index + 1) % every == 0, bad.count < count {
                let (d, t) = (fields[0], fields[1])
                lines.append(
                    [
                        #"{"device":"\#(d)","time":"\#(t)","lat":59.9"#,
                        #"{"device":"\#(d)","time":"yesterday","lat":59.92,"lon":30.32}"#,
                        #"{"device":"\#(d)","time":"\#(t)","lat":"north","lon":30.32}"#,
                        #"{"device":"\#(d)","time":"\#(t)","lat":59.92}"#,
                        #"{"device":"\#(d)","time":"\#(t)","lat":59.92,"lon":30.32,"accuracy":-3}"#,
                    ][bad.count % 5])
                bad.append(lines.count)
            }
        }
        let cleanLines = rows.map(object)
        return BadRowsTable(
            text: lines.joined(separator: "\n") + "\n", clean: cleanLines.joined(separator: "\n") + "\n", badLines: bad)
    }
}
