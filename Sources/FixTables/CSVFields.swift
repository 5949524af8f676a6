/// A CSV record's fields as `CSVFixes` scans them: where each lies in the chunk's buffer, written in place
/// with no uniqueness or capacity check of an array at every field. Memory is kept from record to record.
///
/// A reader and its copies (a piece's reader starts as a copy of the header's) share one until one of
/// them scans: `CSVFixes` then makes its own (`isKnownUniquelyReferenced`, once a record), so that no two
/// readers write the same fields. O(1) a field, amortised.
final class CSVFields: @unchecked Sendable {  // Safety: written only by the reader that holds the one reference.
    typealias Field = (start: Int, end: Int, line: Int, column: Int, escaped: Bool)

    private var base: UnsafeMutablePointer<Field>
    private var capacity: Int
    /// The fields of the record being scanned, or last scanned.
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// A copy with the same fields, for a reader that does not hold the only reference.
    func copy() -> CSVFields {
        let copy = CSVFields(capacity: capacity)
        copy.base.initialize(from: base, count: count)
        copy.count = count
        return copy
    }

    /// Forgets the fields, keeping the memory: a new record.
    @inline(__always)
    func removeAll() { count = 0 }

    /// Adds a field at the end.
    @inline(__always)
    func append(_ field: Field) {
        if count == capacity { grow() }
        (base + count).initialize(to: field)
        count += 1
    }

    /// Field `index` of the record, `0..<count`.
    @inline(__always)
    subscript(index: Int) -> Field {
        precondition(index >= 0 && index < count, "field \(index) of \(count)")
        return base[index]
    }

    /// The record's fields, valid until the next `append` or `removeAll`.
    var all: UnsafeBufferPointer<Field> { UnsafeBufferPointer(start: base, count: count) }

    private func grow() {
        let larger = UnsafeMutablePointer<Field>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
