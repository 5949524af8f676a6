import Geodesy
import NumberText

/// A JSON list of GeoJSON positions (a polygon's ring), each `[longitude, latitude, …]` of plain numbers
/// in range, kept as coordinates rather than as a node and a `String` per number: most of a large region
/// file is rings. Its text is kept to be read again into nodes (`nodes`) when a message needs the place
/// of one position.
package struct PackedPositions {
    /// The positions in order; an elevation or other numbers after the latitude are checked, not kept.
    package var coordinates: [Coordinate]
    /// The list's bytes as written, from its `[` to its `]`: ASCII only (numbers, brackets, commas, white
    /// space).
    package var text: [UInt8]
    /// Where the list's `[` is.
    package var mark: DocumentMark
}

extension PackedPositions {
    /// The list as `JSONReader` reads it without packing: a sequence of sequences of numbers, each with
    /// its place in the file. O(the text).
    package var nodes: DocumentNode {
        text.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, at: mark)
            reader.direct = false
            return (try? reader.value(depth: 1)) ?? .sequence([], mark)
        }
    }
}

extension JSONReader {
    /// At a `[`: the list of positions that starts here, read packed, with the reader moved past it; or
    /// nil, with the reader unmoved, when the list is anything else (not a list of lists, a position with
    /// fewer than two numbers, a number `ExactDecimal` does not read, one out of range, a syntax error):
    /// the caller reads it as nodes, which places any error. O(the list's bytes); one allocation for the
    /// coordinates and one for the text.
    package mutating func positions(depth: Int) -> PackedPositions? {
        guard direct, depth < Self.maximumDepth else { return nil }
        let start = self
        let at = mark
        let first = index
        if let coordinates = readPositions() {
            return PackedPositions(coordinates: coordinates, text: Array(bytes[first..<index]), mark: at)
        }
        self = start
        return nil
    }

    /// The positions of the list at the reader (at its `[`), or nil where packing stops (the reader then
    /// stands anywhere).
    package mutating func readPositions() -> [Coordinate]? {
        index += 1  // the list's `[`
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        var coordinates: [Coordinate] = []
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            guard let longitude = nextNumber(), separator(UInt8(ascii: ",")),
                let latitude = nextNumber()
            else { return nil }
            while !separator(UInt8(ascii: "]")) {
                guard separator(UInt8(ascii: ",")), nextNumber() != nil else { return nil }
            }
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            guard coordinate.isValid else { return nil }
            coordinates.append(coordinate)
            if separator(UInt8(ascii: "]")) { return coordinates }
            guard separator(UInt8(ascii: ",")) else { return nil }
            skipSpace()
        }
    }

    /// Skips white space, then `byte` if it is there.
    package mutating func separator(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// The finite plain number at the reader after white space (as `PlacedNode.plainNumber` reads a
    /// number node), or nil.
    package mutating func nextNumber() -> Double? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[index]),
            let text = try? numberText(mark), Self.readsExactly(jsonNumber: text),
            let value = DecimalText.double(text), value.isFinite
        else { return nil }
        return value
    }
}
