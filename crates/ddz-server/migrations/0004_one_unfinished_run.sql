-- At most one unfinished Bot Buster or Bot Bomber run per name and kind, enforced by the database so that
-- it holds however many requests (or nodes) start runs at once. (Rallies have one attempt per name per day.)
CREATE UNIQUE INDEX challenges_one_unfinished_run ON challenges (name_key, kind) WHERE finished_at IS NULL AND rally IS NULL;
