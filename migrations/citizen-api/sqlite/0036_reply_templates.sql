-- citizen-api, SQLite: reply templates per report category, a text per language in its own
-- column (see the PostgreSQL migration).
CREATE TABLE reply_templates (
    id          TEXT PRIMARY KEY,
    category_id TEXT NOT NULL REFERENCES report_categories (id) ON DELETE CASCADE,
    title       TEXT NOT NULL CHECK (length(trim(title)) > 0),
    text_cs     TEXT,
    text_en     TEXT,
    text_uk     TEXT,
    applies_on  TEXT CHECK (applies_on IN ('accepted', 'resolved')),
    inserted_at INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK (text_cs IS NOT NULL OR text_en IS NOT NULL OR text_uk IS NOT NULL)
);
CREATE INDEX reply_templates_category ON reply_templates (category_id, title);
