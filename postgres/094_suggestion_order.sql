-- Pending topic suggestions list newest first, and a batch is inserted best last so that its
-- strongest suggestion leads. The rows of one batch can share their generated_at (PGlite's clock
-- has millisecond resolution), and the id (random) then decided the order. `created_seq` counts the
-- rows in the order they were inserted and breaks those ties, as 092 does for brands, topics and
-- prompts. Rows made before this migration are numbered in the order they are stored.
ALTER TABLE topic_suggestions ADD COLUMN created_seq bigint GENERATED ALWAYS AS IDENTITY;
