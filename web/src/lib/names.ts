// Bots' names and levels in the player's language. The server names bots "Bot Hard", "Bot Hard 2", ...

import { i18n } from './i18n.svelte';

const LEVELS_ZH: Record<string, string> = {
  random: '随机',
  greedy: '贪心',
  easy: '简单',
  normal: '普通',
  hard: '困难',
  bomber: '炸弹',
};

export function levelName(level: string): string {
  return i18n.lang === 'zh' ? (LEVELS_ZH[level] ?? level) : level;
}

/** `Bot Hard 2` as shown: unchanged in English, `困难机器人 2` in Chinese. */
export function botName(name: string, level: string): string {
  if (i18n.lang !== 'zh') return name;
  const number = name.match(/ (\d+)$/)?.[1];
  return `${levelName(level)}机器人${number ? ` ${number}` : ''}`;
}
