/// The fast path of `CSVFixes.read`: most rows of a real table are plain, and they are read in one pass,
/// a run of them at a time, with no record of each field's place but where it ends.
extension CSVFixes {
    /// Reads the plain records from `file.start` on, as many as follow one another, and consumes them: a
    /// plain record is all buffered (and eight bytes or more from the buffer's end), has as many fields as
    /// the header, none quoted, none holding a NUL or a carriage return, and is ended by LF or CRLF. Their
    /// fields go to `builder.addPlain`; the first record that is not plain, or that the builder does not
    /// take, is left for the general path (`nextRecord`, `row`), which reads it and makes its error, if it
    /// has one. Returns how many records were taken (0: the record at `file.start` is the general path's).
    /// The same rows, fixes and errors as the general path alone. O(bytes of the records), eight bytes at
    /// a time (`structuralBytes`); nothing allocated (where the fields end is kept on the stack).
    @inline(__always)
    mutating func plainRecords(_ file: inout ChunkedFile, into builder: inout some FixRowSink) -> Int {
        let positions = self.positions, first = self.line
        let (delimiter, delimiterLanes, lastField, kept) = (delimiter, delimiterLanes, headerFields - 1, keptFields)
        var taken = 0, consumed = 0, longest = longestRecord
        // Where each of the first `keptFields` fields ends (its delimiter or line end): those read are among them.
        var ends: Ends = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &ends) { raw in
            let ends = raw.bindMemory(to: Int.self)
            file.buffer.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) in
                // C interop: the buffer holds the bytes from start to end, so it has an address.
                // swift-format-ignore: NeverForceUnwrap
                let base = b.baseAddress!
                let end = file.end
                var start = file.start
                while let length = Self.plainLength(
                    base, from: start, to: end, delimiter: delimiter, delimiterLanes: delimiterLanes,
                    lastField: lastField, kept: kept, ends: ends)
                {
                    /// Field `index`'s bytes: from after the delimiter before it (or the record's start) to its end.
                    func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                        let from = index == 0 ? start : ends[index &- 1] &+ 1
                        return UnsafeBufferPointer(start: base + from, count: ends[index] &- from)
                    }
                    let accuracy = positions[4]
                    guard
                        builder.addPlain(
                            device: bytes(positions[0]), time: bytes(positions[1]), lat: bytes(positions[2]),
                            lon: bytes(positions[3]), accuracy: accuracy >= 0 ? bytes(accuracy) : nil,
                            line: first &+ taken)
                    else { break }
                    start &+= length
                    taken &+= 1
                    longest = max(longest, length)
                }
                consumed = start &- file.start
            }
        }
        file.consume(consumed)
        line += taken
        longestRecord = longest
        return taken
    }

    /// Room for where the fields a plain record places end: a header whose fields read reach past the
    /// 16th has its rows read on the general path.
    typealias Ends = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
    static let plainFieldLimit = MemoryLayout<Ends>.size / MemoryLayout<Int>.size

    /// The length of the plain record at `start` (its line end included), with the ends of its first
    /// `kept` fields in `ends`; nil when the record is not plain or not all buffered (`plainRecords`).
    @inline(__always)
    private static func plainLength(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, delimiter: UInt8, delimiterLanes: UInt64,
        lastField: Int, kept: Int, ends: UnsafeMutableBufferPointer<Int>
    ) -> Int? {
        var field = 0
        var word = start
        while true {
            guard end &- word >= 8 else { return nil }  // the general path reads the buffer's last bytes
            let bytes = UnsafeRawPointer(base + word).loadUnaligned(as: UInt64.self)
            var stops = structuralBytes(UInt64(littleEndian: bytes), delimiterLanes: delimiterLanes)
            while stops != 0 {
                let k = word &+ stops.trailingZeroBitCount &>> 3
                stops &= stops &- 1
                let c = base[k]
                if c == delimiter {
                    guard field < lastField else { return nil }  // more fields than the header's
                    if field < kept { ends[field] = k }
                    field &+= 1
                } else if c == UInt8(ascii: "\n") {
                    guard field == lastField else { return nil }  // fewer fields, or a blank line
                    if field < kept { ends[field] = k }
                    return k &+ 1 &- start
                } else if c == UInt8(ascii: "\r") {
                    guard field == lastField, k &+ 1 < end, base[k &+ 1] == UInt8(ascii: "\n") else { return nil }
                    if field < kept { ends[field] = k }
                    return k &+ 2 &- start
                } else if c == UInt8(ascii: "\"") || c == 0 {
                    return nil
                }  // else a byte below '-' inside a field (a space, a '+'), which it keeps
            }
            word &+= 8
        }
    }

    /// The top bit of each byte of `word` (eight bytes of the file, the first in the low byte) that is below
    /// `-` (0x2D: every byte that ends or spoils an unquoted field, `,` `\n` `\r` `"` NUL, a tab, and a few
    /// that do not, a space or a `+`) or equal to the delimiter (`delimiterLanes`, 0 for one below `-`).
    /// Exact for every byte, unlike `skipPlainBytes` (past the first): no carry crosses from byte to
    /// byte, as (b & 0x7F) + 0x53 has its top bit set just when b & 0x7F ≥ 0x2D, and (b & 0x7F) + 0x7F
    /// just when b & 0x7F ≠ 0. O(1).
    @inline(__always)
    static func structuralBytes(_ word: UInt64, delimiterLanes: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080, low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var stops = ~(((word & low) &+ 0x5353_5353_5353_5353) | word) & high
        if delimiterLanes != 0 {
            let other = word ^ delimiterLanes
            stops |= ~(((other & low) &+ low) | other) & high
        }
        return stops
    }
}
