import NumberText
import TextEscaping
import Time

/// Writes one record's UTF-8 bytes (an event's JSON object or CSV record) into memory made for the whole
/// record at once (`EventFormatting.append(atMost:to:_:)`): a field is a copy, with no capacity or
/// uniqueness check of an array per field. The values are written as `EventFormatting` says (times,
/// numbers, escaping); the record's bound is the caller's (`EventFormatting.bound(of:)`).
///
/// It is a `TextOutputStream` that takes ASCII in place (`_writeASCII`): `Double.write(to:)` hands it the
/// bytes of `description` from its own buffer, with no `String` made (a number's 17 or more bytes would
/// be one on the heap).
public struct ByteCursor: TextOutputStream {
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    /// The date of the last time its writer wrote, kept from record to record (`OutputFile`'s), if any.
    @usableFromInline let dates: UnsafeMutablePointer<ISO8601DateMemo>?

    /// Writes from the start of `memory` (not empty), and never past its end (a write that would traps).
    /// Times copy their date from `dates` when it holds their day, and leave theirs there.
    @inlinable
    public init(_ memory: UnsafeMutableBufferPointer<UInt8>, dates: UnsafeMutablePointer<ISO8601DateMemo>? = nil) {
        // C interop: a cursor is made over allocated memory only.
        // swift-format-ignore: NeverForceUnwrap
        start = memory.baseAddress!
        next = start
        end = start + memory.count
        self.dates = dates
    }

    /// The bytes written so far.
    @inlinable
    public var count: Int { next - start }

    /// One byte.
    @inlinable
    public mutating func put(_ byte: UInt8) {
        precondition(next < end)
        next.initialize(to: byte)
        next += 1
    }

    /// Bytes.
    @inlinable @inline(__always)
    public mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        precondition(bytes.count <= end - next)
        next.initialize(from: base, count: bytes.count)
        next += bytes.count
    }

    /// ASCII text known at compile time (keys, punctuation): always inlined, so that the copy of a few
    /// bytes known at compile time is made in place, not by a call to `memcpy`.
    @inlinable @inline(__always)
    public mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8 bytes, as they are.
    @inlinable
    public mutating func put(utf8 text: String) {
        var text = text
        text.withUTF8 { put($0) }
    }

    /// `Timestamp.iso8601`: 24 bytes written in place for years 0000–9999.
    @inlinable
    public mutating func put(time: Timestamp) {
        guard Timestamp.writable.contains(time) else { return put(utf8: time.iso8601) }
        precondition(end - next >= Timestamp.iso8601Length)
        let buffer = UnsafeMutableBufferPointer(start: next, count: Timestamp.iso8601Length)
        if let dates {
            next += time.write(iso8601Into: buffer, memo: &dates.pointee)
        } else {
            next += time.write(iso8601Into: buffer)
        }
    }

    /// `value` as `Double.description` writes it; a value that is not finite puts `otherwise` (`null` in
    /// JSON, nothing in CSV).
    @inlinable
    public mutating func put(number value: Double, otherwise: StaticString = "null") {
        guard value.isFinite else { return put(otherwise) }
        precondition(end - next >= 24)
        // A fix's coordinate from its few digits; a distance's 17 by `ShortestDecimal.write`; anything else (an
        // exponent, a tie) by `description`'s own code, never made a `String`.
        var written = EventFormatting.writeShortDecimal(value, to: next)
        if written == 0 { written = ShortestDecimal.write(value, to: next) }
        guard written > 0 else { return value.write(to: &self) }
        next += written
    }

    /// An integer in decimal (a Monte Carlo run's number). At most 20 bytes.
    @inlinable
    public mutating func put(integer: Int) {
        precondition(end - next >= 20)
        if integer < 0 { put(UInt8(ascii: "-")) }
        let magnitude = UInt64(integer.magnitude), digits = DecimalDigits.count(of: magnitude)
        DecimalDigits.write(magnitude, count: digits, to: next)
        next += digits
    }

    /// A string's UTF-8 bytes (`TextOutputStream`): `put(utf8:)`.
    @inlinable
    public mutating func write(_ string: String) { put(utf8: string) }

    /// ASCII bytes from the standard library's own buffer (`TextOutputStream`'s hook for them, which
    /// `Double.write(to:)` calls): `put(_:)`.
    @inlinable
    public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { put(buffer) }

    /// `text` as a JSON string literal, quotes included (`JSONEscaping`).
    @inlinable
    public mutating func put(jsonString text: String) {
        // Checked and copied from the same bytes, in one visit to them (where they lie: a native or small
        // string's always are, and reading them needs no copy of the string).
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !JSONEscaping.needsEscaping(bytes) else { return false }
            put(0x22)
            put(bytes)
            put(0x22)
            return true
        }
        if plain != true { put(escaped: text) { JSONEscaping.append($0, to: &$1) } }
    }

    /// `text` as a CSV field (`EventFormatting.append(csvField:to:)`).
    @inlinable
    public mutating func put(csvField text: String) {
        // Checked and copied from the same bytes, in one visit to them (as `put(jsonString:)`).
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !EventFormatting.csvNeedsQuotes(bytes) else { return false }
            put(bytes)
            return true
        }
        if plain != true { put(escaped: text) { EventFormatting.append(csvField: $0, to: &$1) } }
    }

    /// The rare text that needs escaping, escaped by `escape` into bytes of its own first.
    @usableFromInline
    mutating func put(escaped text: String, _ escape: (String, inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        escape(text, &bytes)
        bytes.withUnsafeBufferPointer { put($0) }
    }
}

extension EventFormatting {
    /// The most bytes one number or one time takes: `Double.description` writes at most 24, a time 24
    /// (years 0000–9999) or a few more beyond.
    public static let fieldBound = 32

    /// Appends the bytes `body` writes, at most `bound` of them, to `out`, written first in memory made
    /// for them (on the stack when small): one copy into `out` a record. O(bytes).
    @inlinable
    public static func append(atMost bound: Int, to out: inout [UInt8], _ body: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { memory in
            var cursor = ByteCursor(memory)
            body(&cursor)
            out.append(contentsOf: UnsafeBufferPointer(start: memory.baseAddress, count: cursor.count))
        }
    }
}
