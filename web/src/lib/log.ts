// The table log in the player's language.

import { signedMoney } from './format';
import { t } from './i18n.svelte';
import type { LogLine } from './types';

export function logText(line: LogLine, rulesLabel: (rules: string) => string): string {
  switch (line.event) {
    case 'sat':
      return t('logSat', { name: line.name });
    case 'bot_sat':
      return t('logBotSat', { name: line.name, level: line.level });
    case 'deal_started':
      return t('logDealStarted', { n: line.number, rules: rulesLabel(line.rules) });
    case 'timed_out':
      return t('logTimedOut', { name: line.name });
    case 'went_out':
      return t('logWentOut', { name: line.name });
    case 'no_winner':
      return t('logNoWinner');
    case 'wild_set':
      return t(line.on ? 'logWildOn' : 'logWildOff', { name: line.host });
    case 'host_changed':
      return t('logHostChanged', { from: line.from, to: line.to });
    case 'closed':
      return t('logClosed');
    case 'run_over':
      return t('logRunOver', { name: line.name, net: signedMoney(line.net) });
    case 'run_abandoned':
      return t('logRunAbandoned', { name: line.name, net: signedMoney(line.net) });
  }
}
