import Geodesy

/// Turns the fields of each row into fixes, applying SEMANTICS §1 along each device's track as it goes:
/// a time earlier than the device's last kept fix is dropped; of equal times the later row is kept; a
/// coordinate out of range is dropped; missing or malformed values are errors naming line and column.
struct FixTableBuilder {
    /// A field of the current row: its bytes and its place (1-based line and column).
    struct Field {
        var bytes: UnsafeBufferPointer<UInt8>
        var line: Int
        var column: Int
        /// A JSON string (else a JSON number or null, or a CSV field).
        var isString = false
        var isNull = false
    }

    let path: String
    let names: FixTableColumns
    private var devices = DeviceIndex()
    private var fixes: [TableFix] = []
    /// The device of each fix; a dropped fix has -1.
    private var owners: [Int32] = []
    /// Per device: the index in `fixes` of its last kept fix.
    private var lastKept: [Int] = []
    private var times = ISO8601Cache()
    private var rows = 0
    private var dropped = 0
    private var warnings: [FixTableWarning] = []

    init(path: String, names: FixTableColumns) {
        self.path = path
        self.names = names
    }

    private func fail(_ field: Field, _ message: String) -> FixTableError {
        FixTableError(file: path, line: field.line, column: field.column, message: message)
    }

    /// The field's text for a message: quoted, cut after 40 characters.
    private func shown(_ field: Field) -> String {
        let text = String(decoding: field.bytes.prefix(120), as: UTF8.self)
        return "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
    }

    /// Adds one row. `line` is where the row starts; a nil field is absent.
    mutating func add(device: Field?, time: Field?, lat: Field?, lon: Field?, accuracy: Field?, line: Int,
                      rowEnd: (line: Int, column: Int)) throws(FixTableError) {
        rows += 1
        func missing(_ name: String) -> FixTableError {
            FixTableError(file: path, line: rowEnd.line, column: rowEnd.column, message: "the row has no \"\(name)\"")
        }
        guard let device, !device.isNull, !device.bytes.isEmpty else { throw missing(names.device) }
        guard let time, !time.isNull, !time.bytes.isEmpty else { throw missing(names.time) }
        guard let lat, !lat.isNull, !lat.bytes.isEmpty else { throw missing(names.lat) }
        guard let lon, !lon.isNull, !lon.bytes.isEmpty else { throw missing(names.lon) }

        guard device.bytes.count <= DeviceIndex.maximumIDLength else {
            throw fail(device, "the device id is \(device.bytes.count) bytes long; ids are at most \(DeviceIndex.maximumIDLength) bytes")
        }
        let instant = try timestamp(time)
        guard let latitude = DecimalText.double(lat.bytes), latitude.isFinite else {
            throw fail(lat, "\"\(names.lat)\" is \(shown(lat)), which is not a number")
        }
        guard let longitude = DecimalText.double(lon.bytes), longitude.isFinite else {
            throw fail(lon, "\"\(names.lon)\" is \(shown(lon)), which is not a number")
        }
        var metres: Double?
        if let accuracy, !accuracy.isNull, !accuracy.bytes.isEmpty {
            guard let value = DecimalText.double(accuracy.bytes), value.isFinite, value >= 0 else {
                throw fail(accuracy, "\"\(names.accuracy)\" is \(shown(accuracy)); expected a distance in metres, 0 or more")
            }
            metres = value
        }
        let index: Int
        switch devices.index(of: device.bytes) {
        case let .found(found): index = found
        case let .added(added):
            index = added
            lastKept.append(-1)
        case .tooMany:
            throw fail(device, "more than \(DeviceIndex.maximumDevices) devices in one fix table; split the fleet over several files")
        case .notUTF8:
            throw fail(device, "the device id is not UTF-8 text")
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            warn(line, "the fix of \"\(devices.ids[index])\" at (\(latitude), \(longitude)) is out of range (latitude -90…90, longitude -180…180); dropped")
            return
        }
        let fix = TableFix(time: instant, latitude: latitude, longitude: longitude, accuracy: metres, line: line)
        let previous = lastKept[index]
        if previous >= 0 {
            let last = fixes[previous]
            if instant < last.time {
                warn(line, "the fix of \"\(devices.ids[index])\" at \(instant.iso8601) is earlier than its fix at \(last.time.iso8601) (line \(last.line)); dropped")
                return
            }
            if instant == last.time {
                owners[previous] = -1  // of equal times the later is kept
                warn(last.line, "the fix of \"\(devices.ids[index])\" at \(instant.iso8601) has the same time as the one at line \(line); the later is kept")
            }
        }
        lastKept[index] = fixes.count
        fixes.append(fix)
        owners.append(Int32(index))
    }

    private mutating func warn(_ line: Int, _ message: String) {
        dropped += 1
        if warnings.count < FixTable.keptWarnings {
            warnings.append(FixTableWarning(file: path, line: line, message: message))
        }
    }

    /// An ISO 8601 time, or a number of seconds since 1970 read exactly.
    private mutating func timestamp(_ field: Field) throws(FixTableError) -> Timestamp {
        // An ISO 8601 time always has a colon (hh:mm:ss); a number never does.
        let instant: Timestamp?
        if !field.bytes.contains(UInt8(ascii: ":")) {
            instant = DecimalText.microseconds(field.bytes).map(Timestamp.init(microsecondsSince1970:))
        } else {
            instant = times.time(field.bytes)
        }
        guard let instant else {
            throw fail(field, "\"\(names.time)\" is \(shown(field)), which is neither an ISO 8601 time nor a number of seconds since 1970")
        }
        guard Timestamp.writable.contains(instant) else {
            throw fail(field, "\"\(names.time)\" is \(shown(field)), outside the years 0000 to 9999")
        }
        return instant
    }

    /// The table: kept fixes grouped by device, each device's in file order. In place (dropped fixes
    /// squeezed out, then a stable cycle sort by device), so that the fixes are never held twice. O(rows).
    mutating func finish() -> FixTable {
        var kept = 0
        for index in fixes.indices where owners[index] >= 0 {
            fixes[kept] = fixes[index]
            owners[kept] = owners[index]
            kept += 1
        }
        fixes.removeLast(fixes.count - kept)
        owners.removeLast(owners.count - kept)
        // Where each device's fixes begin, then each fix's place (owners turned into destinations).
        var next = [Int](repeating: 0, count: devices.count)
        for owner in owners { next[Int(owner)] += 1 }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(devices.count)
        var total = 0
        for (device, count) in next.enumerated() {
            ranges.append(total..<total + count)
            next[device] = total
            total += count
        }
        for index in owners.indices {
            let device = Int(owners[index])
            owners[index] = Int32(next[device])
            next[device] += 1
        }
        for index in fixes.indices {
            while Int(owners[index]) != index {
                let destination = Int(owners[index])
                fixes.swapAt(index, destination)
                owners.swapAt(index, destination)
            }
        }
        return FixTable(path: path, devices: devices.ids, fixes: fixes, ranges: ranges, rows: rows,
                        dropped: dropped, warnings: warnings)
    }
}
