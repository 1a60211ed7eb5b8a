-- One spelling of each table type wherever one is stored: the engine's `TableType` names (`house`,
-- `no_shuffle`, `two_player`), which the quick-match queue already used. Stats and ratings used the words
-- of rules names (`noshuffle`, `twoplayer`).
UPDATE stats SET table_type = 'no_shuffle' WHERE table_type = 'noshuffle';
UPDATE stats SET table_type = 'two_player' WHERE table_type = 'twoplayer';
UPDATE ratings SET family = 'no_shuffle' WHERE family = 'noshuffle';
UPDATE ratings SET family = 'two_player' WHERE family = 'twoplayer';
UPDATE rating_roles SET family = 'no_shuffle' WHERE family = 'noshuffle';
UPDATE rating_roles SET family = 'two_player' WHERE family = 'twoplayer';
UPDATE rating_history SET family = 'no_shuffle' WHERE family = 'noshuffle';
UPDATE rating_history SET family = 'two_player' WHERE family = 'twoplayer';
