// Tournaments in the client, the part without a page (docs/tournaments.md): the order of the lists, an event's format, phase
// and stages in words, the countdown, and the tournament the player last came from (for the link back from a
// tournament table, whose room does not name its tournament). What the event's page shows of its rules (its
// path, the reader's place and table) comes from the server's `TournamentPage`, never worked out here.

import { language, t, tn } from './i18n.svelte';
import { QUICK_TABLES } from './quick';
import { HOME_PATH, tournamentsHash } from './routes';
import { tableName } from './tables';
import type {
  PathStage,
  TableType,
  TournamentFormat,
  TournamentPhase,
  TournamentSettings,
  TournamentStage,
  TournamentSummary,
} from './wire';

/** A countdown of `ms` as a clock, the same in every language: `m:ss`, or `h:mm:ss` (hours beyond a day
 * counted on); never below 0. */
export function countdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A format in words: `Sit-and-go of 9`, `Scheduled: 5 Dec 2026, 18:00`. */
export function formatWords(format: TournamentFormat): string {
  if (format.kind === 'sit_and_go') return t('sitAndGoOf', { n: format.size });
  const time = new Date(format.starts_at).toLocaleString(language().tag, { dateStyle: 'medium', timeStyle: 'short' });
  return t('scheduledAt', { time });
}

/** A tournament's title: the host's words, or (none given) its table type and format in the reader's language. */
export function titleOf(summary: Pick<TournamentSummary, 'title' | 'table' | 'format'>): string {
  return summary.title || `${tableName(summary.table)} · ${formatWords(summary.format)}`;
}

export function stageWords(stage: TournamentStage): string {
  return t(stage === 'chips' ? 'stageChips' : stage === 'fixed' ? 'stageFixed' : 'stageFinal');
}

/** A running tournament in words: `6 of 9 left · Round 2 · final table`. */
export function runningWords(summary: TournamentSummary): string {
  const words = [t('playersLeft', { left: summary.left, n: summary.entrants })];
  if (summary.round) words.push(t('roundOf', { n: summary.round }));
  if (summary.stage) words.push(stageWords(summary.stage));
  return words.join(' · ');
}

/** The site's own events first, as the hall offers them: a sit-and-go of each table type (in quick match's
 * order), then the scheduled ones (soonest first); then everyone else's in the server's order. */
export function builtInFirst(events: readonly TournamentSummary[]): TournamentSummary[] {
  const builtIn = events.filter((e) => e.recurring);
  const rank = (e: TournamentSummary) => (e.format.kind === 'sit_and_go' ? QUICK_TABLES.indexOf(e.table) : QUICK_TABLES.length);
  const ordered = builtIn.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i);
  return [...ordered.map(({ e }) => e), ...events.filter((e) => !e.recurring)];
}

/** Who hosts an event, in words: the site for its own events. */
export function hostWords(summary: TournamentSummary): string {
  return summary.recurring ? t('hostedBySite') : t('hostedBy', { host: summary.host });
}

/** A stage of the event's path in words: its name, and how far it has come (`Round 2 of 3`, `3 rounds`, `skipped`). */
export function pathStageWords(stage: PathStage): { name: string; progress: string } {
  const name = t(stage.stage === 'chips' ? 'pathChips' : stage.stage === 'fixed' ? 'pathFixed' : 'pathFinal');
  if (stage.stage === 'final') return { name, progress: stage.state === 'done' ? t('pathPlayed') : '' };
  if (stage.planned === 0 && stage.rounds === 0) return { name, progress: t('pathSkipped') };
  const progress =
    stage.state === 'now'
      ? t('pathRoundOf', { n: stage.rounds, of: Math.max(stage.planned, stage.rounds) })
      : stage.state === 'done'
        ? tn('pathRounds', stage.rounds)
        : t('pathUpTo', { n: stage.planned });
  return { name, progress };
}

export function phaseWords(phase: TournamentPhase): string {
  const key = { registering: 'phaseRegistering', running: 'phaseRunning', finished: 'phaseFinished', cancelled: 'phaseCancelled' } as const;
  return t(key[phase]);
}

const LAST_KEY = 'ddz.tournament';

/** Remembers the tournament page the player was last on: a tournament table links back to it. */
export function rememberTournament(id: string, storage: Storage = sessionStorage) {
  storage.setItem(LAST_KEY, id);
}

export function lastTournament(storage: Storage = sessionStorage): string | null {
  return storage.getItem(LAST_KEY);
}

const ENTERED_KEY = 'ddz.tournamentTable';

/** Whether the tournament page takes the player to `code` by itself: once per table, so that the page opened
 * again from that table stays put. */
export function enterOnce(code: string, storage: Storage = sessionStorage): boolean {
  if (storage.getItem(ENTERED_KEY) === code) return false;
  storage.setItem(ENTERED_KEY, code);
  return true;
}

/** Where a tournament table links back to: the tournament page the player came from, else the lists. */
export function tournamentPath(storage: Storage = sessionStorage): string {
  return HOME_PATH + tournamentsHash(lastTournament(storage) ?? undefined);
}
