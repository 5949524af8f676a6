#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A piece's rows as they are read: elements appended in place, in memory whose whole huge pages are
/// advised (`HugePages`). Appending checks only the room (an array's append also asks whether its
/// storage is shared, a call a row); the room doubles when it runs out.
///
/// Written by the one thread that reads the piece, then only read (the merge), so it is `Sendable`.
/// O(1) amortised an append; memory: the capacity.
final class RowBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    // Safety: one thread appends (the piece's), and the rows are read only once it has finished.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    /// Room for at least `capacity` elements.
    init(capacity: Int) {
        (base, self.capacity) = Self.allocate(max(capacity, 1))
    }

    /// The elements appended, in order (valid while the buffer lives and is not appended to).
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(never)
    private func grow() {
        let (larger, room) = Self.allocate(capacity * 2)
        larger.initialize(from: base, count: count)
        free(base)
        (base, capacity) = (larger, room)
    }

    deinit { free(base) }

    /// Memory for `count` elements from `malloc` (so that once freed it serves the next allocations, the
    /// tracks' among them, without new page faults), its whole huge pages advised.
    private static func allocate(_ count: Int) -> (UnsafeMutablePointer<Element>, Int) {
        let bytes = count * MemoryLayout<Element>.stride
        guard let block = malloc(bytes) else { fatalError("out of memory: \(bytes) bytes for a fix table's rows") }
        HugePages.advise(UnsafeMutableRawBufferPointer(start: block, count: bytes))
        return (block.bindMemory(to: Element.self, capacity: count), count)
    }
}
