import EventSinks
import Foundation
import GRDB
import TestSupport
import Testing

@testable import EventSinksSQLite

/// Runs that create the same new database at once all succeed (issue 49 H10): the schema is made in one
/// `BEGIN IMMEDIATE` transaction, waited for under the busy timeout, so a second run sees the first's
/// tables instead of making them again ("table runs already exists") or giving up on a lock.
@Suite("Runs creating the same new database at once")
struct SQLiteConcurrentCreationTests {
    /// How many sinks open the same new file at once, and how many new files are tried.
    static let sinks = 6
    static let rounds = 12

    @Test func everySinkOpeningANewDatabaseAtOnceSucceedsWithItsRows() throws {
        let folder = try temporaryDirectory()
        let events = samples.prefix(3).map(\.event)
        for round in 0..<Self.rounds {
            let path = folder + "/runs-\(round).sqlite"
            let failures = Failures()
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<Self.sinks {
                group.enter()
                Thread {
                    start.wait()
                    do { try run(try SQLiteSink(path: path), events) } catch { failures.add("\(error)") }
                    group.leave()
                }.start()
            }
            for _ in 0..<Self.sinks { start.signal() }
            group.wait()
            #expect(failures.all.isEmpty, "round \(round): \(failures.all)")
            let counts = try DatabaseQueue(path: path).read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM runs WHERE status = 'complete'") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0
                )
            }
            #expect(counts.0 == Self.sinks && counts.1 == Self.sinks * events.count, "round \(round)")
        }
    }
}

/// The errors of threads, gathered.
private final class Failures: @unchecked Sendable {
    // Safety: `list` is guarded by `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
    func add(_ failure: String) { lock.lock(); list.append(failure); lock.unlock() }
}
