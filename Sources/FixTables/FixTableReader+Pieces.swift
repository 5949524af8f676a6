import Foundation
import Parallel

extension FixTableReader {
    /// A file smaller than this is read on one thread (unless `pieces` is given): 4 MiB.
    static let minimumBytesInPieces = 4 << 20
    /// The pieces a file is read in by default, for each core: 4. A core that finishes its piece early
    /// (a neighbour took the other for a while, or its rows parse faster) takes the next one, where one
    /// piece a core left it idle while the last piece was read.
    static let piecesPerCore = 4
    /// The most pieces a file is read in by default: 32.
    static let maximumPieces = 32

    /// How many pieces to read `file` in: `pieces`, else `piecesPerCore` a core (at most `maximumPieces`)
    /// for a file of `minimumBytesInPieces` or more, else 1.
    func pieceCount(_ file: borrowing ChunkedFile) -> Int {
        if let pieces { return pieces }
        guard let size = file.size(), size >= Self.minimumBytesInPieces else { return 1 }
        return min(Self.piecesPerCore * ProcessInfo.processInfo.activeProcessorCount, Self.maximumPieces)
    }

    /// The table read in `count` pieces of whole lines from byte `start` of `file` (after a CSV's header,
    /// which `csv` has read) on several threads, then merged in file order; nil when it is to be read on
    /// one thread: there would be one piece, a CSV's data rows hold a quote (a quoted field may hold a
    /// line end, so a line end need not end a row), or a row is longer than `maximumRowLength` (whether
    /// the read on one thread refuses it depends on where its chunks fall). Gives exactly the read on
    /// one thread's table, or its error. Memory: the fixes, transiently twice (the pieces' rows, freed
    /// once the table is made), and a chunk a piece. O((bytes + rows) / pieces) time on each core.
    func read(
        in count: Int, from start: Int, of file: borrowing ChunkedFile,
        csv: CSVFixes?
    ) throws(FixTableError) -> FixTable? {
        guard let size = file.size() else { return nil }
        let lineOffset = csv.map { $0.line - 1 } ?? 0
        guard let cuts = try cuts(from: start, to: size, count: count) else { return nil }
        let (path, columns, header) = (path, columns, csv)
        let pieces = concurrentMap(cuts.count - 1) { i in
            FixTablePiece(path: path, names: columns, window: cuts[i]..<cuts[i + 1], csv: header)
        }
        guard !pieces.contains(where: \.unsplittable) else { return nil }
        var builder = FixTableBuilder(path: path, names: columns)
        return try builder.merged(consume pieces, lineOffset: lineOffset)
    }

    /// Offsets that cut `start..<end` (bytes of the file) into at most `count` runs of whole lines of
    /// about equal size, each cut just after a line end: `[start, …, end]`. Nil when there would be one
    /// run, or a line longer than `maximumRowLength` stands at a cut. O(count × a chunk) bytes read.
    private func cuts(from start: Int, to end: Int, count: Int) throws(FixTableError) -> [Int]? {
        var cuts = [start]
        for k in 1..<count {
            let target = start + (end - start) * k / count
            guard target >= cuts[cuts.count - 1] else { continue }
            // A look at the window's first line: 64 KiB at a time, not a megabyte.
            var window = try ChunkedFile(path: path, window: target..<end, chunkSize: 64 << 10)
            guard let newline = try window.firstIndex(of: UInt8(ascii: "\n"), within: Self.maximumRowLength) else {
                if window.end - window.start > Self.maximumRowLength { return nil }
                break
            }
            let cut = target + newline + 1
            guard cut < end else { break }
            cuts.append(cut)
        }
        cuts.append(end)
        return cuts.count > 2 ? cuts : nil
    }
}
