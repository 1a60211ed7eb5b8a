// The table log in the player's language.

import { signedMoney } from './format';
import { language, t } from './i18n.svelte';
import { rulesLabel } from './tables';
import type { LogLine } from './types';

export function logText(line: LogLine, name: (n: string) => string): string {
  switch (line.event) {
    case 'sat':
      return t('logSat', { name: name(line.name) });
    case 'bot_sat':
      return t('logBotSat', { name: name(line.name), level: language().botLevel(line.level) });
    case 'deal_started':
      return t('logDealStarted', { n: line.number, rules: rulesLabel(line.rules) });
    case 'timed_out':
      return t('logTimedOut', { name: name(line.name) });
    case 'went_out':
      return t('logWentOut', { name: name(line.name) });
    case 'no_winner':
      return t('logNoWinner');
    case 'wild_set':
      if (line.rank) return t(line.on ? 'logWildRankOn' : 'logWildRankOff', { name: name(line.host) });
      return t(line.on ? 'logWildOn' : 'logWildOff', { name: name(line.host) });
    case 'auto_play':
      return t(line.on ? 'logAutoPlayOn' : 'logAutoPlayOff', { name: name(line.name) });
    case 'host_changed':
      return t('logHostChanged', { from: name(line.from), to: name(line.to) });
    case 'closed':
      return t('logClosed');
    case 'run_over':
      return t('logRunOver', { name: name(line.name), net: signedMoney(line.net) });
    case 'run_abandoned':
      return t('logRunAbandoned', { name: name(line.name), net: signedMoney(line.net) });
  }
}
