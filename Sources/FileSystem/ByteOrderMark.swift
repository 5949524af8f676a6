/// The UTF-8 byte order mark, EF BB BF, which editors and Excel write before text: not part of JSON, CSV or
/// XML, so every reader (GPX, fix tables, JSON and YAML documents, field logs) skips it with this one test.
public enum ByteOrderMark {
    /// 3 when `bytes` start with the mark, else 0: how many bytes to skip. O(1).
    @inlinable
    public static func length<Bytes: Collection<UInt8>>(at bytes: Bytes) -> Int {
        var index = bytes.startIndex
        for byte: UInt8 in [0xEF, 0xBB, 0xBF] {
            guard index != bytes.endIndex, bytes[index] == byte else { return 0 }
            index = bytes.index(after: index)
        }
        return 3
    }
}
