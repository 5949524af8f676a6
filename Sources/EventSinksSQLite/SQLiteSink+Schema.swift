import EventSinks
import GRDB
import WireFormat

extension SQLiteSink {
    /// A run's state in `runs.status`.
    ///
    /// `running` is written when the run starts and stays until the sink finishes or is cancelled: a
    /// `running` row with no live `perimeter` process behind it is an incomplete run (the process was
    /// killed, or the machine stopped); its committed events are all there, in order, but the last
    /// open batch is not.
    public enum RunStatus: String, Hashable, Sendable, CaseIterable {
        case running, complete, interrupted, failed
    }

    /// The columns of `events`, in order: the run, its 0-based sequence number, then the wire fields of
    /// SEMANTICS §7 (`WireField`), in wire order: each revision's migration adds its fields' columns at the end.
    public static let eventColumns = ["run", "seq"] + WireField.allCases.map(\.name)

    /// The columns of `runs`, in order.
    public static let runColumns = [
        "id", "scenario", "scenarioFile", "profile", "startedAt", "clockStart",
        "perimeterVersion", "sqliteVersion", "settings", "status", "finishedAt",
        "eventCount", "monteCarloRun",
    ]

    /// The versioned schema, in order: each migration's identifier (as GRDB's `DatabaseMigrator` records
    /// it in `grdb_migrations`, which files written before keep) and what it does. Migrations are only ever
    /// appended: an existing file written by an older build is brought up to date when it is opened; one
    /// written by a newer build is refused (`prepareSchema`).
    static let migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = [
        (
            "v1: runs and events",
            { db in
                // Without IF NOT EXISTS: a foreign database with a `runs` table is refused, untouched. Runs
                // creating the same new file at once make it once, `prepareSchema`'s transaction.
                try db.execute(
                    sql: """
                        CREATE TABLE runs (
                            id INTEGER PRIMARY KEY,
                            scenario TEXT,
                            scenarioFile TEXT,
                            profile TEXT,
                            startedAt TEXT NOT NULL,
                            clockStart TEXT,
                            perimeterVersion TEXT,
                            sqliteVersion TEXT NOT NULL,
                            settings TEXT,
                            status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
                            finishedAt TEXT,
                            eventCount INTEGER NOT NULL DEFAULT 0
                        );
                        CREATE TABLE events (
                            run INTEGER NOT NULL REFERENCES runs(id),
                            seq INTEGER NOT NULL,
                        \(wireColumns(ofRevision: 1))
                            PRIMARY KEY (run, seq)
                        ) WITHOUT ROWID;
                        CREATE INDEX events_by_device_time ON events(run, device, time);
                        CREATE INDEX events_by_region ON events(run, region);
                        """)
            }
        ),
        (
            "v2: Monte Carlo runs",
            { db in
                // The 0-based run of a Monte Carlo batch (`perimeter run --runs N`); NULL for a plain run.
                try db.execute(sql: "ALTER TABLE runs ADD COLUMN monteCarloRun INTEGER")
            }
        ),
        (
            "v3: delivery delays",
            { db in
                // The phone's decision time of an event delivered late (SEMANTICS §7 "Delivery"); NULL without a delay.
                try addWireColumns(ofRevision: 3, to: db)
            }
        ),
    ]

    /// Brings the schema of the database in `queue` up to date, in one `BEGIN IMMEDIATE` transaction
    /// (waited for under the busy timeout): which migrations were applied is read inside it, so that runs
    /// opening the same new file at once make its tables once, one after the other, and none fails
    /// (issue 49 H10: "table runs already exists", or a lock given up on). Returns false, changing
    /// nothing, when the file holds a migration this build does not know (a newer perimeter wrote it).
    static func prepareSchema(_ queue: DatabaseQueue) throws -> Bool {
        try queue.writeWithoutTransaction { db in
            var known = true
            try db.inTransaction(.immediate) {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
                known = applied.isSubset(of: migrations.map(\.identifier))
                guard known else { return .rollback }
                for migration in migrations where !applied.contains(migration.identifier) {
                    try migration.migrate(db)
                    try db.execute(
                        sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
                }
                return .commit
            }
            return known
        }
    }

    /// Whether the file at `path` is a database this sink wrote, for `OutputRecognition`: an SQLite
    /// header, then the first migration among those GRDB recorded, read through a read-only connection.
    /// Any other database, an empty file (issue 49 H4), or any other file, is not.
    public static func isPerimeterDatabase(_ path: String) -> Bool {
        guard let head = OutputRecognition.head(path, limit: 16) else { return false }
        guard head.elementsEqual("SQLite format 3\0".utf8) else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return false }
        defer { try? queue.close() }
        let first = try? queue.read { db in
            try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier = 'v1: runs and events'")
        }
        return first != nil
    }

    /// A wire field's column in `events`: its name and SQLite type (a time as ISO 8601 TEXT, a number as
    /// REAL: NULL when not finite), NOT NULL when every event has it (`WireField.isAlwaysWritten`).
    static func columnDefinition(_ field: WireField) -> String {
        let type = field.type == .number ? "REAL" : "TEXT"
        return field.name + " " + type + (field.isAlwaysWritten ? " NOT NULL" : "")
    }

    /// The `CREATE TABLE events` lines of the wire fields of `revision`, each `    name TYPE,` on its own
    /// line (the text SQLite keeps in `sqlite_master` is the one written by hand before: unchanged).
    static func wireColumns(ofRevision revision: Int) -> String {
        WireField.allCases.filter { $0.revision == revision }
            .map { "    " + columnDefinition($0) + "," }.joined(separator: "\n")
    }

    /// Adds the columns of the wire fields of `revision` (after the first) to `events`, in wire order.
    static func addWireColumns(ofRevision revision: Int, to db: Database) throws {
        for field in WireField.allCases where field.revision == revision {
            try db.execute(sql: "ALTER TABLE events ADD COLUMN " + columnDefinition(field))
        }
    }

    static let insertEventSQL =
        "INSERT INTO events (" + eventColumns.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: eventColumns.count).joined(separator: ", ") + ")"

    static let insertRunSQL = """
        INSERT INTO runs (scenario, scenarioFile, profile, startedAt, clockStart, perimeterVersion,
                          sqliteVersion, settings, status, eventCount)
        VALUES (?, ?, ?, ?, ?, ?, sqlite_version(), ?, 'running', 0)
        """
}
