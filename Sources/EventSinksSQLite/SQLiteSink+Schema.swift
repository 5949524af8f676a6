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
    /// SEMANTICS §7, in the order of the CSV sink's columns.
    public static let eventColumns = ["run", "seq"] + CSVRecords.columns

    /// The columns of `runs`, in order.
    public static let runColumns = ["id", "scenario", "scenarioFile", "profile", "startedAt", "clockStart",
                                    "perimeterVersion", "sqliteVersion", "settings", "status", "finishedAt",
                                    "eventCount", "monteCarloRun"]

    /// The versioned schema. Migrations are only ever appended: an existing file written by an older
    /// build is brought up to date when it is opened; one written by a newer build is refused.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: runs and events") { db in
            try db.execute(sql: """
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
                    time TEXT NOT NULL,
                    device TEXT NOT NULL,
                    region TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    lat REAL,
                    lon REAL,
                    distance REAL,
                    crossedAt TEXT,
                    arrival TEXT,
                    departure TEXT,
                    duration REAL,
                    rule TEXT,
                    PRIMARY KEY (run, seq)
                ) WITHOUT ROWID;
                CREATE INDEX events_by_device_time ON events(run, device, time);
                CREATE INDEX events_by_region ON events(run, region);
                """)
        }
        migrator.registerMigration("v2: Monte Carlo runs") { db in
            // The 0-based run of a Monte Carlo batch (`perimeter run --runs N`); NULL for a plain run.
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN monteCarloRun INTEGER")
        }
        migrator.registerMigration("v3: delivery delays") { db in
            // The phone's decision time of an event delivered late (SEMANTICS §7 "Delivery"); NULL without a delay.
            try db.execute(sql: "ALTER TABLE events ADD COLUMN detectedAt TEXT")
        }
        return migrator
    }

    static let insertEventSQL = "INSERT INTO events (" + eventColumns.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: eventColumns.count).joined(separator: ", ") + ")"

    static let insertRunSQL = """
        INSERT INTO runs (scenario, scenarioFile, profile, startedAt, clockStart, perimeterVersion,
                          sqliteVersion, settings, status, eventCount)
        VALUES (?, ?, ?, ?, ?, ?, sqlite_version(), ?, 'running', 0)
        """
}
