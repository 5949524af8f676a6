/// The rows of one piece of a fix table (a run of whole lines), read on its own thread for a parallel
/// read: each row's device, as an index among the piece's own devices in order of first appearance, and
/// its checked fix, kept or not, with lines counted from the piece's first line as 1. The first bad row
/// ends the piece (`failure`). `FixTableBuilder.merge` then applies SEMANTICS §1 across pieces in file
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
    /// Adds the rows of `piece` (the next piece of the file, read on another thread) as if they had been
    /// read here, one by one: its devices join in order of first appearance, its fixes are kept or
    /// dropped by `keep`, and its lines are shifted by `lineOffset` (the lines before the piece). Then
    /// throws the piece's first bad row's error, if it had one, as the sequential read would have.
    /// (`reserve` room for all pieces' rows first.)
    /// O(rows of the piece + its devices' id bytes).
    mutating func merge(_ piece: consuming FixTablePiece, lineOffset: Int) throws(FixTableError) {
        /// This table's index of each of the piece's devices (-1: not seen yet).
        var indices = [Int](repeating: -1, count: piece.check.devices.count)
        func adopt(_ local: Int) throws(FixTableError) -> Int {
            if indices[local] >= 0 { return indices[local] }
            let place = piece.firstPlaces[local]
            var id = piece.check.devices.ids[local]
            let found = id.withUTF8 { bytes in
                Result { () throws(FixTableError) in
                    try check.device(bytes, at: RowField(bytes: bytes, line: place.line + lineOffset, column: place.column))
                }
            }
            let (index, added) = try found.get()
            if added { addedDevice(line: place.line + lineOffset) }
            indices[local] = index
            return index
        }
        for (owner, var fix) in zip(piece.owners, piece.fixes) {
            let index = try adopt(Int(owner))
            fix.line += lineOffset
            keep(fix, device: index)
        }
        countRows(piece.rows)
        guard let failure = piece.failure else { return }
        var error = failure.error
        if error.line > 0 { error.line += lineOffset }
        if let lookup = failure.lookup {
            if let local = lookup.device {
                _ = try adopt(local)
            } else if check.devices.count >= DeviceIndex.maximumDevices {
                // The id was refused by the piece, which had fewer devices than this table.
                throw check.tooMany(at: RowField(bytes: UnsafeBufferPointer(start: nil, count: 0),
                                                 line: lookup.line + lineOffset, column: lookup.column))
            }
        }
        throw error
    }
}
