/// The date of the last time written (`YYYY-MM-DDT`, the first 11 bytes of `Timestamp.iso8601`) and its
/// day since 1970: a writer of many times in order (a sink's output) writes a time of the same day by
/// copying the date, without the calendar (`Timestamp.write(iso8601Into:memo:)`). The counterpart of
/// `ISO8601Cache`, which reads them. Empty at first.
public struct ISO8601DateMemo {
    /// The day the date is of; none at first.
    @usableFromInline var day = Int64.min
    /// The date's 11 bytes (in 16).
    @usableFromInline var date: (UInt64, UInt64) = (0, 0)

    public init() {}

    /// Copies the date's 11 bytes to `out`. O(1).
    @inlinable
    func copyDate(to out: UnsafeMutablePointer<UInt8>) {
        // C interop: a tuple of 11 bytes has an address.
        // swift-format-ignore: NeverForceUnwrap
        withUnsafeBytes(of: date) { UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: 11) }
    }

    /// Keeps the 11 bytes at `text` as the date of `day`. O(1).
    @inlinable
    mutating func keep(day: Int64, dateFrom text: UnsafeMutablePointer<UInt8>) {
        self.day = day
        // C interop: a tuple of 11 bytes has an address.
        // swift-format-ignore: NeverForceUnwrap
        withUnsafeMutableBytes(of: &date) { $0.baseAddress!.copyMemory(from: text, byteCount: 11) }
    }
}
