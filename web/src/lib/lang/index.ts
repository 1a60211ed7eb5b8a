// The languages the client speaks: what each language module provides, and the list of them. Adding a
// language is one file like `zh.ts` and one line in `LANGUAGES`.

import type { ErrorCode } from '../errors';
import type { Refusal } from '../types';
import { en, type Words } from './en';
import { zh } from './zh';

export type { Words };

/** A dictionary key: `t(key)` words it in the current language. */
export type Key = keyof Words;

/** The refusals worded from a fixed text (`does_not_beat` is worded from its two readings). */
export type RefusalKind = Exclude<Refusal['kind'], 'does_not_beat'>;

/**
 * How a play's reading is worded (`lib/reading.ts` puts the parts together). A rank arrives as the cards show
 * it (`ranks` applied) and a run as `low-high`.
 */
export interface ReadingWords {
  /** Ranks written otherwise than by the reading's letter: `T` as `10`, the jokers, the Wild. */
  ranks: Partial<Record<string, string>>;
  single(rank: string): string;
  pair(rank: string): string;
  triple(rank: string): string;
  tripleRun(run: string): string;
  straight(run: string): string;
  pairRun(run: string): string;
  fourWithTwo(rank: string): string;
  bomb(rank: string): string;
  /** Added after a soft bomb (one with wild cards) and after a bomb of wild cards alone. */
  soft: string;
  pureWild: string;
  rocket: string;
  /** The attachments of a trio, a four or a plane: `count` singles or pairs. */
  singles(count: number): string;
  pairs(count: number): string;
  /** What the wild cards stand for; `theWild` is House's Wild, else wild-rank cards. */
  wildAs(theWild: boolean, ranks: string[]): string;
  doesNotBeat(reading: string, prior: string): string;
}

export interface Language {
  /** The language's name in itself, on the language buttons. */
  name: string;
  /** Its BCP 47 tag: the page's `lang` and the plural rules of `tn`. */
  tag: string;
  /** The interface's words; `{name}` marks a parameter, `_one` and `_other` the forms per count. */
  words: Words;
  reading: ReadingWords;
  /** Why a selection is no play (`POST /api/readings`). */
  refusals: Record<RefusalKind, string>;
  /** The server's error codes (docs/protocol.md, "Error codes"). */
  errors: Record<ErrorCode, string>;
  /** A bot's level (`hard`) in words, for the table log. */
  botLevel(level: string): string;
  /** A bot's name as shown; the server names bots `Bot Hard`, `Bot Hard 2`, ... */
  botName(name: string, level: string): string;
}

export const LANGUAGES = { en, zh } satisfies Record<string, Language>;

export type Lang = keyof typeof LANGUAGES;

/** Every language with its code, in the order of the language buttons. */
export const LANGUAGE_LIST = Object.entries(LANGUAGES) as [Lang, Language][];
