/// The rows of one piece of a fix table (a run of whole lines), read on its own thread for a parallel
/// read: each row's device, as an index among the piece's own devices in order of first appearance, and
/// its checked fix, kept or not, with lines counted from the piece's first line as 1. The first bad row
/// ends the piece (`failure`). `FixTableBuilder.merged` then applies SEMANTICS §1 across pieces in file
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
    /// Per row: its device and its fix.
    private(set) var owners: [Int32] = []
    private(set) var fixes: [TableFix] = []
    /// Per device: the place of its id in its first row.
    private(set) var firstPlaces: [(line: Int, column: Int)] = []
    private(set) var rows = 0
    /// Lines in the piece (its line ends).
    private(set) var lines = 0
    /// The first bad row's error.
    private(set) var failure: Failure?
    /// Read sequentially instead: a row too long to be read alike in pieces, or (CSV) a quote.
    private(set) var unsplittable = false
    /// The current row's progress past its device id, for `failure`.
    private var lookup: (line: Int, column: Int, device: Int?)?

    var deviceEnded: Bool { false }

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
                defer { ended(lines: reader.line - 1, longest: reader.longestRecord) }
                try reader.read(&file, into: &self)
            }
        } catch {
            failure = Failure(error: error, lookup: lookup)
        }
    }

    /// Room for the rows the window will hold, guessed from the line ends in its first chunk, so that
    /// the rows are not copied as they grow. The chunk stays buffered for the reader.
    private mutating func reserve(for file: inout ChunkedFile, window: Int) throws(FixTableError) {
        guard try file.refill() else { return }
        let lineEnds = file.buffer[file.start..<file.end].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let rows = lineEnds * (window / max(1, file.end - file.start) + 1) + 64
        owners.reserveCapacity(rows)
        fixes.reserveCapacity(rows)
    }

    private mutating func ended(lines: Int, longest: Int) {
        self.lines = lines
        unsplittable = longest > FixTableReader.maximumRowLength
    }

    mutating func add(device: RowField?, time: RowField?, lat: RowField?, lon: RowField?, accuracy: RowField?,
                      line: Int, rowEnd: (line: Int, column: Int)) throws(FixTableError) {
        rows += 1
        let (device, time, lat, lon) = try check.present(device: device, time: time, lat: lat, lon: lon, rowEnd: rowEnd)
        try check.idLength(device)
        lookup = (device.line, device.column, nil)
        let (index, added) = try check.device(device.bytes, at: device)
        if added { firstPlaces.append((device.line, device.column)) }
        lookup = (device.line, device.column, index)
        let fix = try check.fix(time: time, lat: lat, lon: lon, accuracy: accuracy, line: line)
        lookup = nil
        owners.append(Int32(index))
        fixes.append(fix)
    }
}

extension FixTableBuilder {
    /// The table of `pieces` (the file's pieces in order, each read on its own thread) as the read on one
    /// thread would give it, or its error: the pieces' devices join in order of first appearance, their
    /// lines are shifted by the lines before them (`lineOffset` before the first), and each fix is kept
    /// or dropped by `keeping`, in file order. Each fix is placed straight into its device's run of the
    /// table (a counting sort by device; a device's last kept fix is the last one placed in its run), so
    /// the fixes are copied once and never sorted afterwards. Memory: the pieces, freed one by one as
    /// they are placed, and the table. O(rows + devices' id bytes).
    mutating func merged(_ pieces: consuming [FixTablePiece], lineOffset: Int) throws(FixTableError) -> FixTable {
        // First the devices, piece by piece, as the rows would bring them (a piece numbers its devices
        // in order of first appearance), and the rows of each; then a piece's error, if it had one.
        var indices: [[Int32]] = []
        var counts: [Int] = []
        var offset = lineOffset
        for number in pieces.indices {
            let piece = pieces[number]
            var local = [Int32](repeating: -1, count: piece.check.devices.count)
            for device in local.indices {
                local[device] = Int32(try adopt(device, of: piece, lineOffset: offset))
            }
            counts += repeatElement(0, count: check.devices.count - counts.count)
            for owner in piece.owners { counts[Int(local[Int(owner)])] += 1 }
            countRows(piece.rows)
            if let failure = piece.failure { try fail(failure, of: piece, lineOffset: offset) }
            indices.append(local)
            offset += piece.lines
        }
        // Then each fix into its device's run, in file order: starts[d] is where device d's run begins,
        // ends[d] just past its last kept fix.
        var starts: [Int] = [], total = 0
        starts.reserveCapacity(counts.count)
        for count in counts {
            starts.append(total)
            total += count
        }
        var ends = starts
        var ranges: [Range<Int>] = []
        var shift = lineOffset
        let fixes = [TableFix](unsafeUninitializedCapacity: total) { table, initialized in
            pieces.reverse()
            var number = 0
            while let piece = pieces.popLast() {  // each piece's rows freed once placed
                let local = indices[number]
                for (owner, var fix) in zip(piece.owners, piece.fixes) {
                    let device = Int(local[Int(owner)])
                    fix.line += shift
                    let end = ends[device]
                    switch keeping(fix, after: end > starts[device] ? table[end - 1] : nil, device: device) {
                    case .drop: continue
                    case .replaceLast: table[end - 1] = fix
                    case .append:
                        (table.baseAddress! + end).initialize(to: fix)
                        ends[device] = end + 1
                    }
                }
                shift += piece.lines
                number += 1
            }
            // The runs moved down over the dropped fixes' places.
            ranges.reserveCapacity(counts.count)
            var kept = 0
            for device in counts.indices {
                let count = ends[device] - starts[device]
                (table.baseAddress! + kept).moveInitialize(from: table.baseAddress! + starts[device], count: count)
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

    /// Throws the error of `piece`'s first bad row as the read on one thread gives it: its device
    /// refused here first when this table already has as many as it may.
    private func fail(_ failure: FixTablePiece.Failure, of piece: FixTablePiece, lineOffset: Int) throws(FixTableError) -> Never {
        var error = failure.error
        if error.line > 0 { error.line += lineOffset }
        if let lookup = failure.lookup, lookup.device == nil, check.devices.count >= DeviceIndex.maximumDevices {
            // The id was refused by the piece, which had fewer devices than this table.
            throw check.tooMany(at: RowField(bytes: UnsafeBufferPointer(start: nil, count: 0),
                                             line: lookup.line + lineOffset, column: lookup.column))
        }
        throw error
    }
}
