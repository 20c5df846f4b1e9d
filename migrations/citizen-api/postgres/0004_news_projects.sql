-- citizen-api, PostgreSQL: news categories, news items, subscriptions and projects (spec 2.4,
-- 2.5, 2.9).

-- News categories form a tree through parent_id (any depth; the service refuses a parent that
-- would make a category its own ancestor). A category with children cannot be deleted (the
-- foreign key has no cascade: the service answers 409 CATEGORY_HAS_CHILDREN first).
CREATE TABLE news_categories (
    id          UUID PRIMARY KEY,
    name        TEXT NOT NULL CHECK (length(btrim(name)) > 0),
    description TEXT,
    parent_id   UUID REFERENCES news_categories (id),
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    CHECK (parent_id IS NULL OR parent_id <> id)
);
CREATE INDEX news_categories_parent ON news_categories (parent_id) WHERE parent_id IS NOT NULL;

-- A news item. `date` is its publication date (the list's order without a location). The
-- location is kept as plain numbers (read back) and as a geography (GiST: nearest first).
CREATE TABLE news_items (
    id          UUID PRIMARY KEY,
    title       TEXT NOT NULL CHECK (length(btrim(title)) > 0),
    description TEXT NOT NULL,
    image       TEXT,
    date        TIMESTAMPTZ NOT NULL,
    longitude   DOUBLE PRECISION,
    latitude    DOUBLE PRECISION,
    location    public.geography(Point, 4326),
    inserted_at TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    CHECK ((longitude IS NULL) = (latitude IS NULL) AND (longitude IS NULL) = (location IS NULL))
);
CREATE INDEX news_items_by_date ON news_items (date DESC, id DESC);
CREATE INDEX news_items_location ON news_items USING gist (location);
CREATE INDEX news_items_unlocated ON news_items (id DESC) WHERE location IS NULL;

-- The categories of a news item. Deleting a category removes its links: the items stay, with
-- their other categories.
CREATE TABLE news_item_categories (
    news_id     UUID NOT NULL REFERENCES news_items (id) ON DELETE CASCADE,
    category_id UUID NOT NULL REFERENCES news_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (news_id, category_id)
);
CREATE INDEX news_item_categories_category ON news_item_categories (category_id, news_id);

-- Which account (token subject) follows which news category.
CREATE TABLE news_subscriptions (
    subject     TEXT NOT NULL,
    category_id UUID NOT NULL REFERENCES news_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (subject, category_id)
);

-- Projects (spec 2.9): listed by open_from, newest first, then id.
CREATE TABLE projects (
    id          UUID PRIMARY KEY,
    title       TEXT NOT NULL CHECK (length(btrim(title)) > 0),
    description TEXT NOT NULL,
    open_from   TIMESTAMPTZ NOT NULL,
    inserted_at TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ
);
CREATE INDEX projects_by_open_from ON projects (open_from DESC, id DESC);

-- A project's media: files addressed by URL (uploaded to the media store or hosted elsewhere),
-- in the order given.
CREATE TABLE project_media (
    id                UUID PRIMARY KEY,
    project_id        UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    public_url        TEXT NOT NULL,
    original_filename TEXT,
    media_type        TEXT,
    position          INTEGER NOT NULL
);
CREATE INDEX project_media_project ON project_media (project_id, position);
