// Table types and their options in the player's language (RULES.md section 8).

import { t } from './i18n.svelte';

/** A room's or deal's `rules` (`house`, `house-nowild`, `noshuffle-wildrank`, ...) in words: `House · Wild on`. */
export function rulesLabel(rules: string): string {
  const [table, option] = rules.split('-');
  const name = table === 'house' || table === 'noshuffle' || table === 'twoplayer' ? t(table) : table;
  if (table === 'house') return `${name} · ${option ? t('wildOff') : t('wildOn')}`;
  return option ? `${name} · ${t('wildRankOption')}` : name;
}
