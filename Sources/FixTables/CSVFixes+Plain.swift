/// The fast path of `CSVFixes.read`: most rows of a real table are plain, and they are read in one pass
/// with no record of each field's place.
extension CSVFixes {
    /// Reads the record at `file.start` when it is plain: all of it buffered (and eight bytes or more
    /// from the buffer's end), as many fields as the header, none quoted, none holding a NUL or a carriage
    /// return, ended by LF or CRLF. Its fields go to `builder.addPlain`; returns the record's length in bytes
    /// (its line end included) when the builder took it, else nil, having changed nothing: the general path
    /// (`nextRecord`, `row`) then reads the record and makes its error, if it has one. The same rows, fixes
    /// and errors as the general path alone. O(bytes of the record), eight bytes at a time
    /// (`structuralBytes`); nothing allocated.
    @inline(__always)
    func plainRecord(_ file: borrowing ChunkedFile, into builder: inout some FixRowSink) -> Int? {
        let start = file.start, end = file.end
        let delimiter = self.delimiter, delimiterLanes = self.delimiterLanes
        let lastField = headerFields - 1
        return roles.withUnsafeBufferPointer { roles in
            file.buffer.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) -> Int? in
                // Each column's field as its start and end in `b` (a column the header lacks stays empty).
                var device = (0, 0), time = (0, 0), lat = (0, 0), lon = (0, 0), accuracy = (0, 0)
                func found(_ field: Int, _ from: Int, _ to: Int) {
                    switch roles[field] {
                    case 0: device = (from, to)
                    case 1: time = (from, to)
                    case 2: lat = (from, to)
                    case 3: lon = (from, to)
                    case 4: accuracy = (from, to)
                    default: break
                    }
                }
                var field = 0, fieldStart = start
                var word = start
                var length = 0
                record: while true {
                    guard end - word >= 8 else { return nil }  // the general path reads the buffer's last bytes
                    // C interop: the buffer holds the bytes from start to end, so it has an address.
                    // swift-format-ignore: NeverForceUnwrap
                    let bytes = UnsafeRawPointer(b.baseAddress! + word).loadUnaligned(as: UInt64.self)
                    var stops = Self.structuralBytes(UInt64(littleEndian: bytes), delimiterLanes: delimiterLanes)
                    while stops != 0 {
                        let k = word + stops.trailingZeroBitCount >> 3
                        stops &= stops &- 1
                        let c = b[k]
                        if c == delimiter {
                            guard field < lastField else { return nil }  // more fields than the header's
                            found(field, fieldStart, k)
                            field += 1
                            fieldStart = k + 1
                        } else if c == UInt8(ascii: "\n") {
                            guard field == lastField else { return nil }  // fewer fields, or a blank line
                            found(field, fieldStart, k)
                            length = k + 1 - start
                            break record
                        } else if c == UInt8(ascii: "\r") {
                            guard field == lastField, k + 1 < end, b[k + 1] == UInt8(ascii: "\n") else { return nil }
                            found(field, fieldStart, k)
                            length = k + 2 - start
                            break record
                        } else if c == UInt8(ascii: "\"") || c == 0 {
                            return nil
                        }  // else a byte below '-' inside a field (a space, a '+'), which it keeps
                    }
                    word += 8
                }
                func bytes(_ range: (Int, Int)) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: b[range.0..<range.1])
                }
                let took = builder.addPlain(
                    device: bytes(device), time: bytes(time), lat: bytes(lat), lon: bytes(lon),
                    accuracy: positions[4] >= 0 ? bytes(accuracy) : nil, line: line)
                return took ? length : nil
            }
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
