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
