// The hall's words and choices, the part without a page: which of the open tournaments the hall offers (the
// next of each kind), what a tile says about an event, a challenge standing or a quick-match line.

import { signedMoney } from './format';
import { language, t } from './i18n.svelte';
import { QUICK_TABLES } from './quick';
import { tableName } from './tables';
import { countdown } from './tournaments';
import type { ChallengeKind, ChallengeStanding, Hall, QuickLine, TableType, TournamentSummary } from './wire';

/** The challenges in the hall's order. */
export const CHALLENGES: readonly ChallengeKind[] = ['buster', 'bomber', 'rally'];

/**
 * The events the hall offers, one of each kind: the next sit-and-go of each table type (in quick match's
 * order), then the next scheduled event. `open` is the server's list, soonest start first.
 */
export function nextEvents(open: readonly TournamentSummary[]): TournamentSummary[] {
  const sitAndGos = QUICK_TABLES.map((table) => open.find((e) => e.format.kind === 'sit_and_go' && e.table === table));
  const scheduled = open.find((e) => e.format.kind === 'scheduled');
  return [...sitAndGos, scheduled].filter((e): e is TournamentSummary => e !== undefined);
}

/** What a tile calls an event: the host's title, or its table type. */
export function eventName(event: TournamentSummary): string {
  return event.title || tableName(event.table);
}

/**
 * What a tile says of an event under its name: its format and entrants (`Sit-and-go · 3/9`, `5:00 PM · 12
 * registered`), after its table type where the name is the host's title.
 */
export function eventFacts(event: TournamentSummary): string {
  const format = event.format;
  const facts =
    format.kind === 'sit_and_go'
      ? [t('sitAndGo'), `${event.entrants}/${format.size}`]
      : [
          new Date(format.starts_at).toLocaleTimeString(language().tag, { hour: 'numeric', minute: '2-digit' }),
          t('entrants_other', { n: event.entrants }),
        ];
  return (event.title ? [tableName(event.table), ...facts] : facts).join(' · ');
}

/** When an event starts, at the server's time `now` (a sit-and-go nobody has joined has no clock yet). */
export function eventStarts(event: TournamentSummary, now: number): string {
  return event.starts_at === undefined ? t('noClockYet') : t('startsIn', { time: countdown(event.starts_at - now) });
}

/** A challenge's score as its board shows it: Bot Bomber's biggest pot, the others' net. */
function challengeScore(kind: ChallengeKind, score: number): string {
  return kind === 'bomber' ? `$${score}` : signedMoney(score);
}

/** What the player's standing in a challenge says: a run to resume, their best (and rank), or not played. */
export function standingWords(standing: ChallengeStanding | undefined): string {
  if (!standing) return t('notPlayed');
  if (standing.running) return t('resumeRun');
  const best = standing.best;
  if (!best) return t(standing.kind === 'rally' ? 'notPlayedToday' : 'notPlayed');
  const score = challengeScore(standing.kind, best.score);
  const words = t(standing.kind === 'rally' ? 'todayScore' : 'bestScore', { score });
  return best.rank === undefined ? words : `${words} · #${best.rank}`;
}

/** Quick match's line for a table type (none yet: nobody waiting or playing). */
export function quickLine(hall: Hall | null, table: TableType): QuickLine {
  return hall?.quick.find((q) => q.table === table) ?? { table, waiting: 0, playing: 0 };
}
