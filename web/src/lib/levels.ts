// The bots' levels players choose from, weakest first (docs/bots.md, "The ladder"): in Play vs Bots, for a
// waiting room's bots and Add bot. Each is measurably stronger than the one before it.

import type { BotKind } from './wire';

export const LEVELS = [
  { level: 'beginner', name: 'levelBeginner', about: 'levelBeginnerAbout' },
  { level: 'easy', name: 'levelEasy', about: 'levelEasyAbout' },
  { level: 'normal', name: 'levelNormal', about: 'levelNormalAbout' },
  { level: 'hard', name: 'levelHard', about: 'levelHardAbout' },
] as const satisfies readonly { level: BotKind; name: string; about: string }[];

export type Level = (typeof LEVELS)[number]['level'];

const KEY = 'ddz.botLevel';

/** The level this browser chose last for Play vs Bots; Normal at first. */
export function rememberedLevel(): Level {
  const kept = localStorage.getItem(KEY);
  return LEVELS.find((l) => l.level === kept)?.level ?? 'normal';
}

export function rememberLevel(level: Level) {
  localStorage.setItem(KEY, level);
}
