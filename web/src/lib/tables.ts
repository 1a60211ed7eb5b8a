// Table types and their options in the player's language (RULES.md section 8).

import { t } from './i18n.svelte';
import type { Rules, TableRules, TableType } from './wire';

/** What each rules name (a deal view's `rules`) is: the table and which option is on. */
const TABLE_RULES: Record<Rules, TableRules> = {
  house: { table: 'house', wild: true, wild_rank: false },
  'house-nowild': { table: 'house', wild: false, wild_rank: false },
  noshuffle: { table: 'no_shuffle', wild: false, wild_rank: false },
  'noshuffle-wildrank': { table: 'no_shuffle', wild: false, wild_rank: true },
  twoplayer: { table: 'two_player', wild: false, wild_rank: false },
  'twoplayer-wildrank': { table: 'two_player', wild: false, wild_rank: true },
};

/** A deal's rules (`DealView.rules`) as the table and its option. */
export function tableRules(rules: Rules): TableRules {
  return TABLE_RULES[rules];
}

/** A table type's name in words: `House`, `No Shuffle`, `Two Player`. */
export function tableName(table: TableType): string {
  return t(table === 'house' ? 'house' : table === 'no_shuffle' ? 'noshuffle' : 'twoplayer');
}

/** Whether the table's option is on: the Wild at House, Wild Rank elsewhere. */
export function optionOn(rules: TableRules): boolean {
  return rules.table === 'house' ? rules.wild : rules.wild_rank;
}

/** A room's rules in words, the option always on or off: `House · Wild on`, `No Shuffle · Wild Rank off`. */
export function rulesLabel(rules: TableRules): string {
  const name = tableName(rules.table);
  if (rules.table === 'house') return `${name} · ${rules.wild ? t('wildOn') : t('wildOff')}`;
  return `${name} · ${rules.wild_rank ? t('wildRankOn') : t('wildRankOff')}`;
}
