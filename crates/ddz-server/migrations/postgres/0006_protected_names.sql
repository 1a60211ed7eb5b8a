-- PostgreSQL's copy of ../0006_protected_names.sql: the same schema, with BIGINT times.
-- Protected names (docs/names.md): a name that only a session proving its key may use. Only digests are
-- kept (SHA-256 of the random key and of the random recovery code), never the secrets themselves.
-- `name_key` is the name in lower case, as everywhere names compare.
CREATE TABLE protected_names (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_digest TEXT NOT NULL,
    recovery_digest TEXT NOT NULL,
    protected_at BIGINT NOT NULL,
    -- The last protect or recovery: when the current key was issued.
    changed_at BIGINT NOT NULL
);
