import Dispatch
import Foundation
import Parallel

/// The rows of one piece of a fix table (a run of whole lines), read on its own thread for a parallel
/// read: each row's device, as an index among the piece's own devices in order of first appearance, and
/// its checked fix, kept or not, with lines counted from the piece's first line as 1. A row's problem is
/// kept (`problems`) and the row left out; a problem no row can be skipped past ends the piece (`failure`). `FixTableBuilder.merged` then applies SEMANTICS §1 across pieces in file
/// order. Memory: 44 bytes a row. O(bytes of the piece).
struct FixTablePiece: FixRowSink {
    /// Where a piece's first bad row failed, for the merge to give the sequential read's error.
    struct Failure {
        var error: FixTableError
        /// Set when the row got as far as its device id: the id's place, and its device (nil when
        /// looking the id up failed: not UTF-8, or too many devices).
        var lookup: (line: Int, column: Int, device: Int?)?
    }

    private(set) var check: FixRowCheck
    /// Per row: its device and its fix, held by reference (a copy of the piece shares them: a piece is
    /// appended to only while it reads, in place).
    private(set) var owners = RowBuffer<Int32>(capacity: 1)
    private(set) var fixes = RowBuffer<TableFix>(capacity: 1)
    /// Per device: the place of its id in its first row, and its rows (counted when the piece ends).
    private(set) var firstPlaces: [(line: Int, column: Int)] = []
    private(set) var rowCounts: [Int] = []
    private(set) var rows = 0
    /// Lines in the piece (its line ends).
    private(set) var lines = 0
    /// The rows' problems, in the piece's order (lines counted from its first): kept or skipped alike.
    private(set) var problems = RowProblems()
    /// A problem that ended the piece (its device too many, or one of the file: a row too long).
    private(set) var failure: Failure?
    /// Read sequentially instead: a row too long to be read alike in pieces, or (CSV) a quote.
    private(set) var unsplittable = false
    /// The current row's progress past its device id, for `failure`.
    private var lookup: (line: Int, column: Int, device: Int?)?

    var deviceEnded: Bool { false }

    /// A piece's first bad row ends it; no device is handed over.
    func refused(device: RowField?) {}

    /// Reads the bytes `window` of the table at `path`: data rows only, a CSV's columns taken from
    /// `csv` (a reader that has read the header).
    init(path: String, names: FixTableColumns, window: Range<Int>, csv: CSVFixes?) {
        check = FixRowCheck(path: path, names: names)
        do throws(FixTableError) {
            // A quote in a CSV piece may open a field that runs on past the piece's end.
            var file = try ChunkedFile(path: path, window: window, stoppingAt: csv == nil ? nil : UInt8(ascii: "\""))
            defer { unsplittable = unsplittable || file.stopped }
            try reserve(for: &file, window: window.count)
            if var reader = csv {
                reader.line = 1
                defer { ended(lines: reader.line - 1, longest: reader.longestRecord) }
                try reader.read(&file, into: &self)
            } else {
                var reader = JSONLineFixes(path: path, names: names)
                reader.atFileStart = window.lowerBound == 0
                defer { ended(lines: reader.line - 1, longest: reader.longestRecord) }
                try reader.read(&file, into: &self)
            }
        } catch {
            failure = Failure(error: error, lookup: lookup)
        }
    }

    /// Room for the rows the window will hold, guessed from the line ends in the first 64 KiB of its first
    /// chunk, so that the rows are not copied as they grow. The chunk stays buffered for the reader.
    private mutating func reserve(for file: inout ChunkedFile, window: Int) throws(FixTableError) {
        guard try file.refill() else { return }
        let sample = file.start..<min(file.end, file.start + 64 << 10)  // the first 64 KiB tell
        let lineEnds = file.buffer[sample].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let rows = lineEnds * (window / max(1, sample.count) + 1) + 64
        owners = RowBuffer(capacity: rows)
        fixes = RowBuffer(capacity: rows)
    }

    /// Also counts each device's rows, in one pass over `owners` (counted a row, the count's array was
    /// checked for uniqueness at every row).
    private mutating func ended(lines: Int, longest: Int) {
        self.lines = lines
        unsplittable = longest > FixTableReader.maximumRowLength
        var counts = [Int](repeating: 0, count: firstPlaces.count)
        counts.withUnsafeMutableBufferPointer { counts in
            for owner in owners.elements { counts[Int(owner)] += 1 }
        }
        rowCounts = counts
    }

    mutating func add(
        device: RowField?, time: RowField?, lat: RowField?, lon: RowField?, accuracy: RowField?,
        line: Int, rowEnd: (line: Int, column: Int)
    ) throws(FixTableError) {
        rows += 1
        let (id, fix): (RowField, TableFix)
        do {
            let (device, time, lat, lon) = try check.present(device: device, time: time, lat: lat, lon: lon, rowEnd: rowEnd)
            try check.idLength(device)
            (id, fix) = (device, try check.fix(time: time, lat: lat, lon: lon, accuracy: accuracy, line: line))
        } catch {
            guard take(error) else { throw error }
            return
        }
        lookup = (id.line, id.column, nil)
        let (index, added): (Int, Bool)
        do {
            (index, added) = try check.device(id.bytes, at: id)
        } catch {
            guard take(error) else { throw error }
            lookup = nil
            return
        }
        if added { firstPlaces.append((id.line, id.column)) }
        lookup = nil
        owners.append(Int32(index))
        fixes.append(fix)
    }

    /// A row the reader refused before `add`, counted as read when its problem is taken (`take`).
    mutating func rowProblem(_ problem: FixTableError) -> Bool {
        guard take(problem) else { return false }
        rows += 1
        return true
    }

    /// Keeps every problem (its row left out, whether the table is refused or its bad rows skipped), but a
    /// device too many, which ends the piece.
    private mutating func take(_ problem: FixTableError) -> Bool {
        guard !problem.endsRead else { return false }
        problems.add(problem)
        return true
    }

    var takesPlainRows: Bool { true }

    mutating func addPlain(
        device: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>,
        lon: UnsafeBufferPointer<UInt8>, accuracy: UnsafeBufferPointer<UInt8>?, line: Int
    ) -> Bool {
        guard
            let (index, fix) = check.plainRow(device: device, time: time, lat: lat, lon: lon, accuracy: accuracy, line: line)
        else { return false }
        rows += 1
        owners.append(Int32(index))
        fixes.append(fix)
        return true
    }
}

extension FixTableBuilder {
    /// The table of `pieces` (the file's pieces in order, each read on its own thread) as the read on one
    /// thread would give it, or its error: the pieces' devices join in order of first appearance, their
    /// lines are shifted by the lines before them (`lineOffset` before the first), and each device's fixes
    /// are kept or dropped by `rule`, in file order, with the same warnings in the same order.
    ///
    /// On all cores: each piece's rows are placed straight into their device's run of the table (a
    /// counting sort by device: a piece's rows of a device follow those of the pieces before it), then
    /// §1 runs along each device's run in place, groups of devices at once. Warnings are made for the
    /// first `FixTable.keptWarnings` dropped fixes in file order only. Memory: the pieces and the table.
    /// O(rows + devices × pieces) work, O(devices × pieces) of it on one thread.
    mutating func merged(_ pieces: consuming [FixTablePiece], lineOffset: Int) throws(FixTableError) -> FixTable {
        // First the devices, piece by piece, as the rows would bring them (a piece numbers its devices
        // in order of first appearance), and the rows of each; then a piece's error, if it had one.
        var indices: [[Int32]] = []
        var counts: [Int] = []
        var shifts: [Int] = []
        var offset = lineOffset
        for number in pieces.indices {
            let piece = pieces[number]
            var local = [Int32](repeating: -1, count: piece.check.devices.count)
            do {
                for device in local.indices {
                    local[device] = Int32(try adopt(device, of: piece, lineOffset: offset))
                }
            } catch {
                // The piece's problems before the device too many come first, as the read on one thread finds them.
                problems.append(piece.problems.before(line: error.line - offset), lineOffset: offset)
                throw problemsError(ending: error) ?? error
            }
            counts += repeatElement(0, count: check.devices.count - counts.count)
            for (device, rows) in piece.rowCounts.enumerated() { counts[Int(local[device])] += rows }
            countRows(piece.rows)
            countNotes(of: piece.check, after: offset)
            problems.append(piece.problems, lineOffset: offset)
            if let failure = piece.failure { try fail(failure, of: piece, lineOffset: offset) }
            indices.append(local)
            shifts.append(offset)
            offset += piece.lines
        }
        if let error = problemsError() { throw error }
        // Where each device's run starts, and where each piece's rows of each of its devices begin.
        var starts: [Int] = [], total = 0
        starts.reserveCapacity(counts.count)
        for count in counts {
            starts.append(total)
            total += count
        }
        var next = starts
        let places: [[Int]] = pieces.indices.map { number in
            zip(indices[number], pieces[number].rowCounts).map { device, rows in
                defer { next[Int(device)] += rows }
                return next[Int(device)]
            }
        }
        let rows = pieces.indices.map { (owners: pieces[$0].owners, fixes: pieces[$0].fixes, shift: shifts[$0]) }
        var ranges: [Range<Int>] = []
        let fixes = [TableFix](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else {  // no row kept room for: every device's run is empty
                ranges = Array(repeating: 0..<0, count: counts.count)
                return
            }
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            let table = TableStart(base)
            DispatchQueue.concurrentPerform(iterations: rows.count) { number in
                var at = places[number]
                let piece = rows[number]
                for (owner, var fix) in zip(piece.owners.elements, piece.fixes.elements) {
                    fix.line += piece.shift
                    (table.base + at[Int(owner)]).initialize(to: fix)
                    at[Int(owner)] += 1
                }
            }
            let groups = min(counts.count, 4 * ProcessInfo.processInfo.activeProcessorCount)
            let outcomes = concurrentMap(groups) { [starts, counts] group in
                RunOutcome(
                    table.base, starts: starts, counts: counts,
                    devices: group * counts.count / groups..<(group + 1) * counts.count / groups)
            }
            // The dropped fixes' warnings in file order (the order of the rows they were found at), then
            // the runs moved down over their places.
            let found = outcomes.flatMap(\.dropped).sorted { $0.fix.line < $1.fix.line }.prefix(FixTable.keptWarnings)
            for dropped in found { warn(dropped.drop, fix: dropped.fix, last: dropped.last, device: dropped.device) }
            countDropped(outcomes.reduce(0) { $0 + $1.droppedCount } - found.count)
            ranges.reserveCapacity(counts.count)
            var kept = 0
            for (device, count) in outcomes.flatMap(\.kept).enumerated() {
                if kept != starts[device] { (base + kept).moveInitialize(from: base + starts[device], count: count) }
                ranges.append(kept..<kept + count)
                kept += count
            }
            initialized = kept
        }
        return table(fixes: fixes, ranges: ranges)
    }

    /// This table's index of device `local` of `piece`, the device joining here if it is new (`check`
    /// refuses a table's device too many). O(the id's bytes).
    private mutating func adopt(_ local: Int, of piece: FixTablePiece, lineOffset: Int) throws(FixTableError) -> Int {
        let place = piece.firstPlaces[local]
        var id = piece.check.devices.ids[local]
        let found = id.withUTF8 { bytes in
            Result { () throws(FixTableError) in
                try check.device(bytes, at: RowField(bytes: bytes, line: place.line + lineOffset, column: place.column))
            }
        }
        let (index, added) = try found.get()
        if added { addedDevice(line: place.line + lineOffset) }
        return index
    }

    /// Throws the problem that ended `piece` as the read on one thread gives it (its device refused here
    /// first when this table already has as many as it may), after the rows' problems before it.
    private func fail(
        _ failure: FixTablePiece.Failure, of piece: FixTablePiece, lineOffset: Int
    ) throws(FixTableError) -> Never {
        var error = failure.error
        if error.line > 0 { error.place.line += lineOffset }
        if let lookup = failure.lookup, lookup.device == nil, check.devices.count >= DeviceIndex.maximumDevices {
            // The id was refused by the piece, which had fewer devices than this table.
            error = check.tooMany(
                at: RowField(
                    bytes: UnsafeBufferPointer(start: nil, count: 0),
                    line: lookup.line + lineOffset, column: lookup.column))
        }
        throw problemsError(ending: error) ?? error
    }
}

/// The start of a table being merged, shared by the threads that fill it.
private struct TableStart: @unchecked Sendable {
    // Safety: during the merge each thread writes only its own places (a piece's rows; a group's runs).
    let base: UnsafeMutablePointer<TableFix>
    init(_ base: UnsafeMutablePointer<TableFix>) { self.base = base }
}
