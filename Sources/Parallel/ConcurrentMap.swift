import Dispatch

/// `body(i)` for every i in `0..<count`, on up to one thread a core (`DispatchQueue.concurrentPerform`),
/// the results in index order: which thread ran what never shows in the output. Each task writes only
/// its own slot. Memory: the `count` results.
public func concurrentMap<Value>(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
    let slots = Slots<Value>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { i in slots.store(i, body(i)) }
    return slots.values()
}

/// One slot per task of `concurrentMap`.
private final class Slots<Value>: @unchecked Sendable {
    // Safety: slot i is written once by task i during concurrentPerform, and read only after it
    // returned; the buffer itself is never resized.
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ i: Int, _ value: Value) { slots[i] = value }

    /// The results, moved out of their slots.
    func values() -> [Value] {
        // Invariant: concurrentPerform returned, so task i stored slot i.
        // swift-format-ignore: NeverForceUnwrap
        slots.indices.map { i in slots[i].take()! }
    }
}
