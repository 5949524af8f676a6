import Foundation
import NumberText
import ReadableText
import TextEscaping
import Time

/// A field of a row as a reader found it: its bytes and its place (1-based line and column).
struct RowField {
    var bytes: UnsafeBufferPointer<UInt8>
    var line: Int
    var column: Int
    /// A JSON string (else a JSON number or null, or a CSV field).
    var isString = false
    var isNull = false
}

/// Where `CSVFixes` and `JSONLineFixes` hand each row's fields: the table's builder, or a piece's rows.
protocol FixRowSink {
    /// Adds one row. `line` is where the row starts; a nil field is absent.
    mutating func add(
        device: RowField?, time: RowField?, lat: RowField?, lon: RowField?, accuracy: RowField?,
        line: Int, rowEnd: (line: Int, column: Int)) throws(FixTableError)
    /// A streamed device's rows have ended: the reader returns so that it is handed over.
    var deviceEnded: Bool { get }
    /// A row refused before `add` took it (too few fields, cut short by the end of the input, not
    /// JSON): `device` is its device field when the reader got that far, else nil.
    mutating func refused(device: RowField?)
    /// A problem of a row the reader could not hand to `add` (a field too many or too few, a line that is
    /// not JSON): true when the sink keeps it (or skips the row, `RowProblemPolicy`) and the read goes on to
    /// the next row, false when the read stops with it. Called only on a row's failure path.
    mutating func rowProblem(_ problem: FixTableError) -> Bool
    /// Whether `addPlain` takes rows (else the reader does not offer them).
    var takesPlainRows: Bool { get }
    /// Adds a plain row (`CSVFixes.plainRecords`: unquoted, every field present) when each check passes on
    /// its common path: a device already seen, numbers and a time that read. False, having changed nothing,
    /// for any other row, which the reader then hands to `add` to be checked in full (and its error made).
    mutating func addPlain(
        device: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>,
        lon: UnsafeBufferPointer<UInt8>, accuracy: UnsafeBufferPointer<UInt8>?, line: Int
    ) -> Bool
}

extension FixRowSink {
    var takesPlainRows: Bool { false }

    /// A sink that stops at a row's first problem.
    mutating func rowProblem(_ problem: FixTableError) -> Bool { false }

    mutating func addPlain(
        device: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>,
        lon: UnsafeBufferPointer<UInt8>, accuracy: UnsafeBufferPointer<UInt8>?, line: Int
    ) -> Bool { false }
}

/// Checks one row's fields in the order SEMANTICS §1 and the messages fix (first that the values are
/// present, then the device, then time, lat, lon and accuracy) and turns them into a device index and a
/// fix; what is kept or dropped is the caller's. The one implementation behind both the sequential
/// builder and the pieces of a parallel read. O(length of the fields) a row.
struct FixRowCheck {
    let path: String
    /// The mapping, for messages (held by reference: a check is copied where it is called, at every row).
    var names: FixTableColumns { mapping.columns }
    private let mapping: FixTableColumns.Box
    private(set) var devices = DeviceIndex()
    private var times: FixTimeReader
    /// Rows whose lat is past ±90 while their lon is within it: a lat column that holds longitudes.
    private(set) var latitudesLikeLongitudes = 0

    /// The table writes decimal commas (`names.decimalComma`), read at every row.
    private let decimalComma: Bool
    /// Times in a clock change of `names.localZone` (nil without one): their warning's count and places.
    var clockChanges: ClockChangeTimes? { clockChangeNotes?.times }
    /// `clockChanges`, held by reference as `mapping` is: a check is copied where it is called.
    private let clockChangeNotes: ClockChangeNotes?

    init(path: String, names: FixTableColumns) {
        self.path = path
        mapping = FixTableColumns.Box(names)
        times = FixTimeReader(names)
        decimalComma = names.decimalComma
        clockChangeNotes = names.localZone.map { ClockChangeNotes(ClockChangeTimes(zone: $0)) }
    }

    func fail(_ field: RowField, _ message: String) -> FixTableError {
        FixTableError(file: path, line: field.line, column: field.column, message: message)
    }

    /// The field's text for a message: `TerminalText.excerpt` (its start and length once over 16
    /// characters), so a secrets file read as a fix table shows no key.
    private func shown(_ field: RowField) -> String {
        TerminalText.excerpt(String(decoding: field.bytes, as: UTF8.self))
    }

    /// The four values a row must have, or an error at the row's end naming the first one missing.
    func present(
        device: RowField?, time: RowField?, lat: RowField?, lon: RowField?,
        rowEnd: (line: Int, column: Int)
    ) throws(FixTableError) -> (RowField, RowField, RowField, RowField) {
        func missing(_ name: String) -> FixTableError {
            FixTableError(file: path, line: rowEnd.line, column: rowEnd.column, message: "the row has no \"\(name)\"")
        }
        guard let device, !device.isNull, !device.bytes.isEmpty else { throw missing(names.device) }
        guard let time, !time.isNull, !time.bytes.isEmpty else { throw missing(names.time) }
        guard let lat, !lat.isNull, !lat.bytes.isEmpty else { throw missing(names.lat) }
        guard let lon, !lon.isNull, !lon.bytes.isEmpty else { throw missing(names.lon) }
        return (device, time, lat, lon)
    }

    /// The index of the row's device (in order of first appearance), and whether this row added it.
    mutating func device(_ field: RowField) throws(FixTableError) -> (index: Int, added: Bool) {
        try idLength(field)
        return try device(field.bytes, at: field)
    }

    /// Refuses a device id longer than `DeviceIndex.maximumIDLength`.
    func idLength(_ field: RowField) throws(FixTableError) {
        guard field.bytes.count <= DeviceIndex.maximumIDLength else {
            throw fail(
                field,
                "the device id is \(field.bytes.count) bytes long; ids are at most \(DeviceIndex.maximumIDLength) bytes")
        }
    }

    /// The index of the device whose id is `bytes`, adding it when new; `field` places an error.
    mutating func device(
        _ bytes: UnsafeBufferPointer<UInt8>, at field: RowField
    ) throws(FixTableError) -> (index: Int, added: Bool) {
        switch devices.index(of: bytes) {
        case let .found(found): return (found, false)
        case let .added(added): return (added, true)
        case .tooMany: throw tooMany(at: field)
        case .notUTF8: throw fail(field, "the device id is not UTF-8 text")
        }
    }

    /// The error for a device past `DeviceIndex.maximumDevices`, at `field`: it ends the read, whether
    /// bad rows are skipped or not.
    func tooMany(at field: RowField) -> FixTableError {
        var error = fail(
            field, "more than \(DeviceIndex.maximumDevices) devices in one fix table; split the fleet over several files")
        error.endsRead = true
        return error
    }

    /// A plain row's device (one already seen) and fix, when its four values are present and every value
    /// reads: its numbers (a point, not a comma) and its time. Nil, having changed nothing, where `present`,
    /// `device` or `fix` would throw, add a device, or read a decimal comma: the time is read last, as it
    /// counts a time without a zone. The same device and fix as those otherwise. The one check behind
    /// every sink's `addPlain`.
    @inline(__always)
    mutating func plainRow(
        device: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>,
        lon: UnsafeBufferPointer<UInt8>, accuracy: UnsafeBufferPointer<UInt8>?, line: Int
    ) -> (device: Int, fix: TableFix)? {
        guard !device.isEmpty, !time.isEmpty, !lat.isEmpty, !lon.isEmpty, let index = devices.existing(device),
            let fix = plainFix(time: time, lat: lat, lon: lon, accuracy: accuracy, line: line)
        else { return nil }
        return (index, fix)
    }

    @inline(__always)
    private mutating func plainFix(
        time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>, lon: UnsafeBufferPointer<UInt8>,
        accuracy: UnsafeBufferPointer<UInt8>?, line: Int
    ) -> TableFix? {
        guard !decimalComma, let latitude = DecimalText.double(lat), latitude.isFinite,
            let longitude = DecimalText.double(lon), longitude.isFinite
        else { return nil }
        var metres: Double?
        if let accuracy, !accuracy.isEmpty {
            guard let value = DecimalText.double(accuracy), value.isFinite, value >= 0 else { return nil }
            metres = value
        }
        guard let instant = times.instant(time) else { return nil }
        if times.lastChange != nil, !FixTimeReader.isNumber(time) {
            times.uncountLast()  // the general path reads it again and places its warning
            return nil
        }
        if abs(latitude) > 90, abs(longitude) <= 90 { latitudesLikeLongitudes += 1 }
        return TableFix(time: instant, latitude: latitude, longitude: longitude, accuracy: metres, line: line)
    }

    /// The row's fix (its coordinates possibly out of range: `isInRange` tells).
    mutating func fix(
        time: RowField, lat: RowField, lon: RowField, accuracy: RowField?,
        line: Int
    ) throws(FixTableError) -> TableFix {
        let instant = try timestamp(time)
        guard let latitude = number(lat), latitude.isFinite else {
            throw fail(lat, "\"\(names.lat)\" is \(shown(lat)), which is not a number\(decimalHint(lat))")
        }
        guard let longitude = number(lon), longitude.isFinite else {
            throw fail(lon, "\"\(names.lon)\" is \(shown(lon)), which is not a number\(decimalHint(lon))")
        }
        if abs(latitude) > 90, abs(longitude) <= 90 { latitudesLikeLongitudes += 1 }
        var metres: Double?
        if let accuracy, !accuracy.isNull, !accuracy.bytes.isEmpty {
            guard let value = number(accuracy), value.isFinite, value >= 0 else {
                throw fail(
                    accuracy,
                    "\"\(names.accuracy)\" is \(shown(accuracy)); expected a distance in metres, 0 or more\(decimalHint(accuracy))"
                )
            }
            metres = value
        }
        return TableFix(time: instant, latitude: latitude, longitude: longitude, accuracy: metres, line: line)
    }

    /// The field's number: decimal text (`DecimalText`), its comma read as the point when the table
    /// writes decimal commas.
    private func number(_ field: RowField) -> Double? {
        guard names.decimalComma, let comma = field.bytes.firstIndex(of: UInt8(ascii: ",")) else {
            return DecimalText.double(field.bytes)
        }
        return FixTableColumns.double(field.bytes, pointAt: comma)
    }

    /// For a number that failed to read: `; it has a decimal comma: …give decimal: ","` when it reads
    /// with its one comma as the point and the table was not said to write decimal commas, else nothing.
    private func decimalHint(_ field: RowField) -> String {
        let bytes = field.bytes
        guard !names.decimalComma, bytes.lazy.filter({ $0 == UInt8(ascii: ",") }).count == 1,
            let comma = bytes.firstIndex(of: UInt8(ascii: ",")), FixTableColumns.double(bytes, pointAt: comma) != nil
        else { return "" }
        return "; it has a decimal comma: for a table written so, give \(names.setting(.decimal, ","))"
    }

    /// The field's time (`FixTimeReader`), or an error naming the column and saying why it is none.
    @inline(__always)
    private mutating func timestamp(_ field: RowField) throws(FixTableError) -> Timestamp {
        guard let instant = times.instant(field.bytes) else {
            throw fail(field, times.problem(field.bytes, named: names.time, shown: shown(field), columns: names))
        }
        if let change = times.lastChange, !FixTimeReader.isNumber(field.bytes) {
            clockChangeNotes?.times.add(
                String(decoding: field.bytes, as: UTF8.self), reading: LocalReading(instant: instant, change: change),
                at: (field.line, field.column))
        }
        return instant
    }

    /// ISO times read so far that had no zone (read in `names.localZone`, else as UTC).
    var zonelessTimes: Int { times.zonelessTimes }
}

/// A table's times in a clock change (`FixRowCheck.clockChanges`), in a box that copies of a check share.
final class ClockChangeNotes {
    var times: ClockChangeTimes
    init(_ times: ClockChangeTimes) { self.times = times }
}

extension TableFix {
    /// Latitude in -90…90 and longitude in -180…180 (SEMANTICS §1: else the fix is dropped).
    var isInRange: Bool { (-90...90).contains(latitude) && (-180...180).contains(longitude) }
}
