-- Lists of brands, topics and prompts are ordered by when each was made (newest or oldest first),
-- but rows made in one transaction (an apply, a list of prompts added at once) can share their
-- created_at: PGlite's clock has millisecond resolution, so a burst of inserts ties, and the id
-- (random) then decided the order. `created_seq` counts the rows in the order they were inserted
-- and breaks those ties. Rows made before this migration are numbered in the order they are stored.
ALTER TABLE brands ADD COLUMN created_seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE topics ADD COLUMN created_seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE prompts ADD COLUMN created_seq bigint GENERATED ALWAYS AS IDENTITY;
