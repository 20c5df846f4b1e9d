-- citizen-api, PostgreSQL: reply templates (GET/POST /admin/reply-templates, PATCH/DELETE
-- /admin/reply-templates/{templateId}): texts an officer starts a statement from, per report
-- category, in the city's languages. A text per language in its own column (NULL: none in that
-- language; at least one is there), as the service keeps other fixed fields, not as a JSON map
-- the database could not check. `applies_on` is the status change the console pre-fills the
-- template on (NULL: none). A deleted category takes its templates with it. The rules of
-- titles, texts and the number per category are domain::reply_templates; the checks here only
-- keep the table's shape.
CREATE TABLE reply_templates (
    id          UUID PRIMARY KEY,
    category_id UUID NOT NULL REFERENCES report_categories (id) ON DELETE CASCADE,
    title       TEXT NOT NULL CHECK (length(btrim(title)) > 0),
    text_cs     TEXT,
    text_en     TEXT,
    text_uk     TEXT,
    applies_on  TEXT CHECK (applies_on IN ('accepted', 'resolved')),
    inserted_at TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    CHECK (text_cs IS NOT NULL OR text_en IS NOT NULL OR text_uk IS NOT NULL)
);
-- A category's templates by title (the list's order, and the count of the limit per category).
CREATE INDEX reply_templates_category ON reply_templates (category_id, title);
