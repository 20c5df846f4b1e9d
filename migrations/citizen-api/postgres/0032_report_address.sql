-- The place in words, as the citizen gave it (POST /reports `address`, at most 200 characters);
-- the detail shows it. The issues' copies of the report's columns (0014) do not hold it: the
-- list rows do not show it.
ALTER TABLE reports ADD COLUMN address TEXT;
