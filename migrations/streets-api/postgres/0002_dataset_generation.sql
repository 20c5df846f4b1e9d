-- One row counting imports. Every import bumps it in the same transaction as the data, so a
-- running service can tell cheaply whether the streets it cached are still the current ones.
CREATE TABLE dataset (
    singleton  BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    generation BIGINT NOT NULL
);
INSERT INTO dataset (singleton, generation) VALUES (TRUE, 0);
