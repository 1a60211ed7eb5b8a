// A play's reading in the player's language, put together here from the reading's fields (type, main rank,
// length, attachments, strength, what wild cards stand for) with the language's words (`lang/`), the ranks as
// the cards show them (10, not T). Only wording: what a selection may be read as always comes from the server.

import { language } from './i18n.svelte';
import type { ReadingWords } from './lang';
import type { Reading, Refusal } from './types';

const ORDER = '3456789TJQKA2';

/** The lowest rank of a run whose top is `main` and which is `length` ranks long. */
function low(r: Reading): string {
  return ORDER[ORDER.indexOf(r.main) - (r.length - 1)] ?? r.main;
}

function worded(r: Reading, words: ReadingWords): string {
  const rank = (letter: string) => words.ranks[letter] ?? letter;
  const main = rank(r.main);
  const run = `${rank(low(r))}-${main}`;
  let text: string;
  switch (r.type) {
    case 'single':
      text = words.single(main);
      break;
    case 'pair':
      text = words.pair(main);
      break;
    case 'triples':
      text = r.length === 1 ? words.triple(main) : words.tripleRun(run);
      break;
    case 'straight':
      text = words.straight(run);
      break;
    case 'pair_run':
      text = words.pairRun(run);
      break;
    case 'four_with_two':
      text = words.fourWithTwo(main);
      break;
    case 'bomb':
      text = words.bomb(main) + (r.strength === 'soft' ? words.soft : r.strength === 'pure_wild' ? words.pureWild : '');
      break;
    case 'rocket':
      text = words.rocket;
      break;
    default:
      return r.text;
  }
  if (r.attach === 'singles') text += words.singles(r.attach_count);
  if (r.attach === 'pairs') text += words.pairs(r.attach_count);
  if (r.wild_as) text += words.wildAs(r.ranks.includes('W'), [...r.wild_as].map(rank));
  return text;
}

export function readingText(r: Reading): string {
  return worded(r, language().reading);
}

/** Why a selection cannot be played, in the player's language (the server's words only without a refusal). */
export function refusalText(refusal: Refusal | undefined, error: string | undefined): string | null {
  if (!refusal) return error ?? null;
  const { reading, refusals } = language();
  if (refusal.kind === 'does_not_beat')
    return reading.doesNotBeat(worded(refusal.reading, reading), worded(refusal.prior, reading));
  return refusals[refusal.kind];
}
