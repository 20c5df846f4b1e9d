-- citizen-api, SQLite: news categories, news items, subscriptions and projects (see the
-- PostgreSQL migration). Nearest-first news is ordered by the service (exact distances in Rust).

CREATE TABLE news_categories (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL CHECK (length(trim(name)) > 0),
    description TEXT,
    parent_id   TEXT REFERENCES news_categories (id),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK (parent_id IS NULL OR parent_id <> id)
);
CREATE INDEX news_categories_parent ON news_categories (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE news_items (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL CHECK (length(trim(title)) > 0),
    description TEXT NOT NULL,
    image       TEXT,
    date        INTEGER NOT NULL,
    longitude   REAL,
    latitude    REAL,
    inserted_at INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((longitude IS NULL) = (latitude IS NULL))
);
CREATE INDEX news_items_by_date ON news_items (date DESC, id DESC);
CREATE INDEX news_items_unlocated ON news_items (id DESC) WHERE longitude IS NULL;

CREATE TABLE news_item_categories (
    news_id     TEXT NOT NULL REFERENCES news_items (id) ON DELETE CASCADE,
    category_id TEXT NOT NULL REFERENCES news_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (news_id, category_id)
);
CREATE INDEX news_item_categories_category ON news_item_categories (category_id, news_id);

CREATE TABLE news_subscriptions (
    subject     TEXT NOT NULL,
    category_id TEXT NOT NULL REFERENCES news_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (subject, category_id)
);

CREATE TABLE projects (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL CHECK (length(trim(title)) > 0),
    description TEXT NOT NULL,
    open_from   INTEGER NOT NULL,
    inserted_at INTEGER NOT NULL,
    updated_at  INTEGER
);
CREATE INDEX projects_by_open_from ON projects (open_from DESC, id DESC);

CREATE TABLE project_media (
    id                TEXT PRIMARY KEY,
    project_id        TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    public_url        TEXT NOT NULL,
    original_filename TEXT,
    media_type        TEXT,
    position          INTEGER NOT NULL
);
CREATE INDEX project_media_project ON project_media (project_id, position);
