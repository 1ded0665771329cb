-- When the brand's last re-analysis finished and switched its figures (docs/workspace.md,
-- `last_finished_at` of the re-analysis status). finished_at is the current run's end and is
-- cleared while a run goes; this one stays until the next run finishes.
ALTER TABLE reanalyses ADD COLUMN last_finished_at timestamptz;
UPDATE reanalyses SET last_finished_at = finished_at WHERE status = 'done';
