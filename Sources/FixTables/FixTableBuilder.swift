import ReadableText
import TextEscaping

/// Turns the fields of each row into fixes, applying SEMANTICS §1 along each device's track as it goes:
/// a time earlier than the device's last kept fix is dropped; of equal times the later row is kept; a
/// coordinate out of range is dropped; missing or malformed values are errors naming line and column.
///
/// Streaming (`perimeter stream`): each device's rows must follow each other, in time order; a device's
/// fixes are handed over (`completed`) when the next device's first row arrives, so that only one
/// device's fixes are held. A device that comes back, or a time that goes back, is an error naming both lines.
struct FixTableBuilder: FixRowSink {
    let path: String
    /// The mapping, for messages.
    var names: FixTableColumns { check.names }
    /// The fields' checks, and the devices seen.
    var check: FixRowCheck
    private var fixes: [TableFix] = []
    /// The device of each fix; a dropped fix has -1.
    private var owners: [Int32] = []
    /// Per device (not streaming): the index in `fixes` of its last kept fix.
    private var lastKept: [Int] = []
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
    /// Streaming: the most rows one device may have (its fixes are held until its rows end).
    let maximumDeviceRows: Int
    /// Streaming: the rows of the device being read.
    private var currentRows = 0
    /// Merged: the pieces' times without a zone, and rows whose lat looks like a longitude.
    private var piecesZoneless = 0
    private var piecesLatitudesLikeLongitudes = 0
    /// Merged: the pieces' times in a clock change of the table's zone, in file order.
    private var piecesClockChanges: ClockChangeTimes?
    /// What a row with a problem does (`RowProblemPolicy`), and the problems found, in file order.
    let policy: RowProblemPolicy
    var problems = RowProblems()

    init(path: String, names: FixTableColumns, streaming: Bool = false, maximumDeviceRows: Int = .max) {
        self.path = path
        self.streaming = streaming
        self.maximumDeviceRows = maximumDeviceRows
        policy = RowProblemPolicy(names, streaming: streaming)
        check = FixRowCheck(path: path, names: names)
    }

    var deviceEnded: Bool { completed != nil }

    /// Adds one row. `line` is where the row starts; a nil field is absent. A row's problem is kept, or
    /// the row skipped (`policy`), and it changes nothing else: its device is added only once its fix reads.
    mutating func add(
        device: RowField?, time: RowField?, lat: RowField?, lon: RowField?, accuracy: RowField?,
        line: Int, rowEnd: (line: Int, column: Int)
    ) throws(FixTableError) {
        rows += 1
        let (id, at, fix): (RowField, RowField, TableFix)
        do {
            let (device, time, lat, lon) = try check.present(device: device, time: time, lat: lat, lon: lon, rowEnd: rowEnd)
            try check.idLength(device)
            (id, at, fix) = (device, time, try check.fix(time: time, lat: lat, lon: lon, accuracy: accuracy, line: line))
        } catch {
            return try problem(error, device: device)
        }
        let (index, added): (Int, Bool)
        do {
            (index, added) = try check.device(id.bytes, at: id)
        } catch {
            return try problem(error, device: device)
        }
        if added { addedDevice(line: line) }
        if streaming && index != current {
            if index != lastLines.count - 1 {  // an id seen before, not a new one
                completeCurrent()
                throw check.fail(
                    id,
                    "\(TerminalText.quoted(check.devices.ids[index])) comes back after other devices' rows (its rows ended at line \(lastLines[index])); each device's rows must follow each other: sort the table by device, then by time"
                )
            }
            completeCurrent()
            current = index
        }
        if streaming {
            lastLines[index] = line
            currentRows += 1
            if currentRows > maximumDeviceRows { throw tooManyRows(at: id) }
            guard fix.isInRange else { return warn(.outOfRange, fix: fix, last: nil, device: index) }
            return try addInOrder(fix, at: at)
        }
        keep(fix, device: index)
    }

    /// A row's problem, kept or its row skipped (`rowProblem`), else thrown: streaming, a bad row of
    /// another device first ends the device being read (`refused`).
    private mutating func problem(_ error: FixTableError, device: RowField?) throws(FixTableError) {
        if take(error) { return }
        refused(device: device)
        throw error
    }

    /// A row the reader refused before `add`, counted as read when its problem is taken.
    mutating func rowProblem(_ problem: FixTableError) -> Bool {
        guard take(problem) else { return false }
        rows += 1
        return true
    }

    /// Keeps a row's problem (or counts its row skipped) unless the read is to stop at it (`policy`).
    private mutating func take(_ problem: FixTableError) -> Bool {
        guard policy != .stop, !problem.endsRead else { return false }
        problems.add(problem)
        return true
    }

    /// The error of the rows' problems (every one, `RowProblems`) when they refuse the table (`policy`
    /// `collect`), `ending` after them; else `ending` alone. Nil when there is nothing to throw.
    func problemsError(ending: FixTableError? = nil) -> FixTableError? {
        policy == .collect ? problems.error(ending: ending, names: names) : ending
    }

    /// Not streaming (a stream's device changes are `add`'s).
    var takesPlainRows: Bool { !streaming }

    mutating func addPlain(
        device: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>,
        lon: UnsafeBufferPointer<UInt8>, accuracy: UnsafeBufferPointer<UInt8>?, line: Int
    ) -> Bool {
        guard !streaming,
            let (index, fix) = check.plainRow(device: device, time: time, lat: lat, lon: lon, accuracy: accuracy, line: line)
        else { return false }
        rows += 1
        keep(fix, device: index)
        return true
    }

    /// Streaming: a bad row that names a device other than the one being read (even one cut short by the
    /// end of the input) ends that device's rows, which are handed over (`completed`) before the error,
    /// as when the row is whole; a row of the same device, or with no device, ends nothing. O(id length).
    mutating func refused(device: RowField?) {
        guard streaming, current >= 0, completed == nil, let device, !device.isNull, !device.bytes.isEmpty,
            !device.bytes.elementsEqual(check.devices.ids[current].utf8)
        else { return }
        completeCurrent()
    }

    /// A device was added to `check.devices` by a row at `line`: its state.
    mutating func addedDevice(line: Int) {
        if streaming { lastLines.append(line) } else { lastKept.append(-1) }
    }

    /// Not streaming: keeps a checked fix of device `index` by SEMANTICS §1 (`keeping`). O(1) amortised.
    mutating func keep(_ fix: TableFix, device index: Int) {
        let previous = lastKept[index]
        switch keeping(fix, after: previous >= 0 ? fixes[previous] : nil, device: index) {
        case .drop: return
        case .replaceLast: owners[previous] = -1
        case .append: break
        }
        lastKept[index] = fixes.count
        fixes.append(fix)
        owners.append(Int32(index))
    }

    /// `rule` for one fix of device `index`, warning of what is dropped or replaced. O(1).
    mutating func keeping(_ fix: TableFix, after last: TableFix?, device index: Int) -> Keeping {
        let (keeping, drop) = Self.rule(for: fix, after: last)
        if let drop { warn(drop, fix: fix, last: last, device: index) }
        return keeping
    }

    /// Counts a fix of device `index` dropped (or `last` replaced) for `drop`; its warning is made only
    /// while fewer than `FixTable.keptWarnings` are kept. `last` is the device's last kept fix.
    mutating func warn(_ drop: Drop, fix: TableFix, last: TableFix?, device index: Int) {
        dropped += 1
        guard dropped <= FixTable.keptWarnings else { return }
        let id = TerminalText.visible(check.devices.ids[index])
        switch (drop, last) {
        case let (.earlier, last?):
            warnings.append(
                FixTableWarning(
                    file: path, line: fix.line,
                    message:
                        "the fix of \"\(id)\" at \(fix.time.iso8601) is earlier than its fix at \(last.time.iso8601) (line \(last.line)); dropped"
                ))
        case let (.sameTime, last?):
            warnings.append(
                FixTableWarning(
                    file: path, line: last.line,
                    message:
                        "the fix of \"\(id)\" at \(fix.time.iso8601) has the same time as the one at line \(fix.line); the later is kept"
                ))
        default:
            warnings.append(
                FixTableWarning(
                    file: path, line: fix.line,
                    message:
                        "the fix of \"\(id)\" at (\(fix.latitude), \(fix.longitude)) is out of range (latitude -90…90, longitude -180…180); dropped"
                ))
        }
    }

    /// Makes room for `rows` more fixes at once (the read on one thread, from the file's size), so that a
    /// large table is not copied as it grows, nor its pages touched twice. O(1).
    mutating func reserve(rows: Int) {
        fixes.reserveCapacity(fixes.count + rows)
        owners.reserveCapacity(owners.count + rows)
    }

    /// Rows read by others (a piece's), counted as this table's.
    mutating func countRows(_ count: Int) { rows += count }

    /// Fixes dropped by others (a merge's), counted as this table's, without warnings.
    mutating func countDropped(_ count: Int) { dropped += count }

    /// A piece's times without a zone, times in a clock change and rows whose lat looks like a longitude,
    /// counted as this table's; the piece's lines follow `lines` lines of the table.
    mutating func countNotes(of piece: FixRowCheck, after lines: Int) {
        piecesZoneless += piece.zonelessTimes
        piecesLatitudesLikeLongitudes += piece.latitudesLikeLongitudes
        if let changes = piece.clockChanges, !changes.isEmpty {
            if piecesClockChanges == nil { piecesClockChanges = ClockChangeTimes(zone: changes.zone) }
            piecesClockChanges?.merge(changes, after: lines)
        }
    }

    /// The warnings about the whole table read so far (`FixTable.tableWarnings`).
    var tableWarnings: [String] {
        var clockChanges = check.clockChanges
        if let piecesClockChanges { clockChanges?.merge(piecesClockChanges) }
        return [names.zonelessWarning(file: path, count: check.zonelessTimes + piecesZoneless)].compactMap { $0 }
            + (clockChanges?.warnings(file: path, of: "fix table") ?? [])
            + [
                names.latitudeWarning(
                    file: path, count: check.latitudesLikeLongitudes + piecesLatitudesLikeLongitudes),
                policy == .skip ? problems.skippedWarning(file: path, names: names) : nil,
            ]
            .compactMap { $0 }
    }

    /// Streaming: appends the current device's fix, whose time may not go back (its field at `time`).
    private mutating func addInOrder(_ fix: TableFix, at time: RowField) throws(FixTableError) {
        guard let last = fixes.last else { return fixes.append(fix) }
        if fix.time < last.time {
            throw check.fail(
                time,
                "the time \(fix.time.iso8601) of \(TerminalText.quoted(check.devices.ids[current])) is earlier than its time \(last.time.iso8601) at line \(last.line); each device's rows must be in time order: sort the table by device, then by time"
            )
        }
        if fix.time == last.time {
            warn(.sameTime, fix: fix, last: last, device: current)
            fixes[fixes.count - 1] = fix
            return
        }
        fixes.append(fix)
    }

    /// Streaming: the error for the row past `maximumDeviceRows` of the device being read, at its id.
    private func tooManyRows(at device: RowField) -> FixTableError {
        let limit = Readable.grouped(Int64(maximumDeviceRows))
        return check.fail(
            device,
            "\(TerminalText.quoted(check.devices.ids[current])) has more than \(limit) rows; a streamed device holds at most \(limit) rows in memory (--max-rows-per-device N raises the limit, at about \(FixTableStream.bytesPerDeviceRow) bytes of memory a row)"
        )
    }

    /// Streaming: hands the current device's fixes over to `completed`.
    private mutating func completeCurrent() {
        guard current >= 0 else { return }
        precondition(completed == nil, "a completed device was not taken before the next one")
        completed = StreamedDevice(id: check.devices.ids[current], fixes: fixes)
        fixes = []
        current = -1
        currentRows = 0
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
        var next = [Int](repeating: 0, count: check.devices.count)
        for owner in owners { next[Int(owner)] += 1 }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(check.devices.count)
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
        return table(fixes: fixes, ranges: ranges)
    }

    /// The table of `fixes`, kept and grouped by device (`ranges[i]` are device i's), with this
    /// builder's devices, rows and warnings.
    func table(fixes: [TableFix], ranges: [Range<Int>]) -> FixTable {
        FixTable(
            path: path, devices: check.devices.ids, fixes: fixes, ranges: ranges, rows: rows,
            dropped: dropped, warnings: warnings, tableWarnings: tableWarnings, skippedRows: problems.count)
    }
}
