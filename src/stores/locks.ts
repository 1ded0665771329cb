// Every Postgres advisory lock the application takes, in one place, so no two can share an id by
// accident. The numbers are arbitrary but must never change while an older instance may still run
// beside a newer one (a rolling deploy): both must take the same lock for it to exclude anything.
// Scheduled jobs take no lock: a tick claims a unique job_runs(job, slot, scope) row (jobs/schedule.ts).
// On embedded PGlite advisory locks do not exclude its connections from one another (docs/architecture.md),
// which is why what they guard also rests on one process owning the stores.

/** Session lock: two starting instances apply migrations in turn (src/stores/migrate.ts). */
export const MIGRATION_LOCK = 724_851_001;

/** Session lock: ingests of answers never interleave across processes (src/tracking/ingest/lock.ts). */
export const INGEST_LOCK = 724_851_002;

// Per-brand transaction locks: `pg_advisory_xact_lock(hashtextextended(brand_id, seed))`. The seed
// keeps the locks of different writers of one brand apart.

/** One writer of a brand's content opportunities at a time (src/content/opportunities.ts). */
export const OPPORTUNITIES_LOCK_SEED = 10;

/** One writer of a brand's topic suggestions at a time (src/content/suggestions.ts). */
export const SUGGESTIONS_LOCK_SEED = 11;
