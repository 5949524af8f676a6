import Geodesy

/// Turns the fields of each row into fixes, applying SEMANTICS §1 along each device's track as it goes:
/// a time earlier than the device's last kept fix is dropped; of equal times the later row is kept; a
/// coordinate out of range is dropped; missing or malformed values are errors naming line and column.
///
/// Streaming (`perimeter stream`): each device's rows must follow each other, in time order; a device's
/// fixes are handed over (`completed`) when the next device's first row arrives, so that only one
/// device's fixes are held. A device that comes back, or a time that goes back, is an error naming both lines.
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
    /// Per device (not streaming): the index in `fixes` of its last kept fix.
    private var lastKept: [Int] = []
    private var times = ISO8601Cache()
    private var rows = 0
    private var dropped = 0
    private var warnings: [FixTableWarning] = []
    /// Streaming: the device whose rows are being read (-1 before the first row).
    let streaming: Bool
    private var current = -1
    /// Streaming: per device, the line of its last row.
    private var lastLines: [Int] = []
    /// Streaming: a device whose rows have ended, until it is taken.
    var completed: StreamedDevice?

    init(path: String, names: FixTableColumns, streaming: Bool = false) {
        self.path = path
        self.names = names
        self.streaming = streaming
    }

    /// Makes room for about `rows` fixes at once, so that a large table is not copied as it grows (nor its
    /// pages touched twice). O(1).
    mutating func reserve(rows: Int) {
        fixes.reserveCapacity(rows)
        owners.reserveCapacity(rows)
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
        // The device first: in a stream, a new device's row ends the previous device, even when it is bad.
        let index: Int
        switch devices.index(of: device.bytes) {
        case let .found(found): index = found
        case let .added(added):
            index = added
            if streaming { lastLines.append(line) } else { lastKept.append(-1) }
        case .tooMany:
            throw fail(device, "more than \(DeviceIndex.maximumDevices) devices in one fix table; split the fleet over several files")
        case .notUTF8:
            throw fail(device, "the device id is not UTF-8 text")
        }
        if streaming && index != current {
            if index != lastLines.count - 1 {  // an id seen before, not a new one
                completeCurrent()
                throw fail(device, "\"\(devices.ids[index])\" comes back after other devices' rows (its rows ended at line \(lastLines[index])); each device's rows must follow each other: sort the table by device, then by time")
            }
            completeCurrent()
            current = index
        }
        if streaming { lastLines[index] = line }
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
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            warn(line, "the fix of \"\(devices.ids[index])\" at (\(latitude), \(longitude)) is out of range (latitude -90…90, longitude -180…180); dropped")
            return
        }
        let fix = TableFix(time: instant, latitude: latitude, longitude: longitude, accuracy: metres, line: line)
        if streaming { return try addInOrder(fix, time) }
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

    /// Streaming: appends the current device's fix, whose time may not go back.
    private mutating func addInOrder(_ fix: TableFix, _ time: Field) throws(FixTableError) {
        guard let last = fixes.last else { return fixes.append(fix) }
        if fix.time < last.time {
            throw fail(time, "the time \(fix.time.iso8601) of \"\(devices.ids[current])\" is earlier than its time \(last.time.iso8601) at line \(last.line); each device's rows must be in time order: sort the table by device, then by time")
        }
        if fix.time == last.time {
            warn(last.line, "the fix of \"\(devices.ids[current])\" at \(fix.time.iso8601) has the same time as the one at line \(fix.line); the later is kept")
            fixes[fixes.count - 1] = fix
            return
        }
        fixes.append(fix)
    }

    /// Streaming: hands the current device's fixes over to `completed`.
    private mutating func completeCurrent() {
        guard current >= 0 else { return }
        precondition(completed == nil, "a completed device was not taken before the next one")
        completed = StreamedDevice(id: devices.ids[current], fixes: fixes)
        fixes = []
        current = -1
    }

    /// Streaming, at the end of the table: the last device's fixes, or nil when the table had no row.
    mutating func finishStream() -> StreamedDevice? {
        completeCurrent()
        defer { completed = nil }
        return completed
    }

    /// Streaming: the warnings kept since the last call.
    mutating func takeWarnings() -> [FixTableWarning] {
        defer { warnings.removeAll() }
        return warnings
    }

    var rowsRead: Int { rows }
    var droppedFixes: Int { dropped }

    private mutating func warn(_ line: Int, _ message: String) {
        dropped += 1
        if dropped <= FixTable.keptWarnings {
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
