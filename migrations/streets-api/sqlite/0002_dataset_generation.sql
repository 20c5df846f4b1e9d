-- One row counting imports. Every import bumps it in the same transaction as the data, so a
-- running service can tell cheaply whether the streets it cached are still the current ones.
CREATE TABLE dataset (
    singleton  INTEGER PRIMARY KEY DEFAULT 1 CHECK (singleton = 1),
    generation INTEGER NOT NULL
);
INSERT INTO dataset (singleton, generation) VALUES (1, 0);
