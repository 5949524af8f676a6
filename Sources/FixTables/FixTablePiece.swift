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
