// The cards the player has selected and what they may be played as: the selection's readings, the one chosen,
// the reason when they are no play, and the Hint's plays, all from the engine in the page (`../engine/engine`)
// in the frame of the tap. Play and Pass send the turn; a typed play (`components/table/TypedPlay.svelte`) goes
// the same way. While the connection is down the player still selects and reads; a play or pass made then is
// held, and sent when the table is back if it is still that turn.

import { flushSync, untrack } from 'svelte';
import type { Position } from '../api';
import { hintsOf, readingsOf } from '../engine/engine';
import { refusalText } from '../reading';
import { naturalOrder } from './readings';
import type { Card, ClientAction, HintPlay, Reading, ReadingsAnswer } from '../types';
import type { TableState } from './table.svelte';

/** What the selection reads of the table, and the way it sends the turn. */
export type SelectionTable = Pick<TableState, 'deal' | 'room' | 'hand' | 'playing' | 'prior'> & {
  conn: Pick<TableState['conn'], 'act' | 'status'>;
};

function sameReading(a: Reading, b: Reading): boolean {
  return a.type === b.type && a.main === b.main && a.length === b.length && a.attach === b.attach &&
    a.attach_count === b.attach_count && (a.wild_as ?? '') === (b.wild_as ?? '') &&
    (a.strength ?? '') === (b.strength ?? '');
}

/** The same cards, in any order. */
function sameCards(a: Card[], b: Card[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

/** Create it while a component initialises: its effects follow the table from then on. */
export class Selection {
  selected = $state<string[]>([]);
  /** The selection's readings; Play sends `options[chosen]`. */
  options = $state<Reading[]>([]);
  chosen = $state(0);
  /** Why the selection is no play. */
  reason = $state<string | null>(null);
  /** The cards a typed play selected: while they are the selection, the field speaks for it. */
  private typedCards = $state<Card[] | null>(null);
  readonly typed = $derived(this.typedCards !== null && sameCards(this.typedCards, this.selected));
  /** Which turn it is: the hints are this turn's, and a new turn reads the selection anew. */
  private readonly turn = $derived.by(
    () => `${this.table.deal?.actions.length ?? -1}:${this.table.deal?.phase}:${this.table.room?.deals_played}`,
  );
  /** The Hint's plays for the turn they were asked in, and the one it selected last. */
  private hints = $state.raw<{ turn: string; plays: HintPlay[]; shown: number } | null>(null);
  /** Hint found no legal play this turn. */
  readonly noPlay = $derived(this.hints?.turn === this.turn && this.hints.plays.length === 0);
  /** The reading to choose once the readings arrive (the Hint's), if it is among them. */
  private wantReading: Reading | null = null;
  /** Play was asked for while the selection's readings were still on the way. */
  private playWhenRead = false;
  /** Counts requests for readings, so that an answer to an earlier selection is dropped. */
  private token = 0;
  /** A play or pass made while the connection was down, with the turn it was made in. */
  held = $state.raw<{ turn: string; action: ClientAction } | null>(null);

  constructor(private readonly table: SelectionTable) {
    // Selected cards that left the hand (played, or a new deal) leave the selection.
    $effect(() => {
      const inHand = new Set(table.hand);
      if (this.selected.some((c) => !inHand.has(c))) this.selected = this.selected.filter((c) => inHand.has(c));
    });

    $effect(() => {
      const pos = this.position();
      const cards = [...this.selected];
      void this.turn;
      this.options = [];
      this.chosen = 0;
      this.reason = null;
      // Each run outdates the answers still on the way.
      const mine = ++this.token;
      this.playWhenRead = false;
      if (!pos || !table.playing || cards.length === 0) return;
      const show = (answer: ReadingsAnswer) => {
        if (mine !== this.token) return;
        this.options = naturalOrder(answer.readings);
        this.reason = refusalText(answer.refusal, answer.error);
        const want = this.wantReading;
        const i = want ? this.options.findIndex((r) => sameReading(r, want)) : -1;
        this.chosen = Math.max(0, i);
        // A typed Enter plays once the readings are in, unless there are several to choose from.
        if (this.playWhenRead && (this.options.length === 1 || i >= 0)) this.play();
        this.playWhenRead = false;
      };
      const fail = (e: unknown) => mine === this.token && (this.reason = (e as Error).message);
      // From the engine the answer is here at once, and shown in this task's microtasks (before the next
      // frame); only the HTTP fallback makes it wait. Shown outside the effect, which it must not retrigger.
      let answer: ReadingsAnswer | Promise<ReadingsAnswer>;
      try {
        answer = readingsOf({ ...pos, cards });
      } catch (e) {
        answer = Promise.reject(e);
      }
      Promise.resolve(answer).then(show, fail);
    });

    // A turn facing a play: the Hint's plays are worked out at once (the engine is in the page), so that Pass
    // says when nothing beats it without the player asking.
    $effect(() => {
      const turn = this.turn;
      const pos = this.position();
      if (!pos || !table.playing || !table.prior) return;
      untrack(() => {
        if (this.hints?.turn !== turn) void this.loadHints(pos, turn);
      });
    });

    // The table is back: a held play goes if its turn is still on, else it is dropped.
    $effect(() => {
      const held = this.held;
      if (!held || table.conn.status !== 'open') return;
      untrack(() => {
        this.held = null;
        if (held.turn !== this.turn || !table.playing) return;
        table.conn.act(held.action);
        this.selected = [];
        this.wantReading = null;
      });
    });
  }

  private position(): Position | null {
    const deal = this.table.deal;
    if (!deal) return null;
    return { rules: deal.rules, wild_rank: deal.wild_rank, hand: deal.hand ?? [], prior: this.table.prior };
  }

  /** Selects or unselects one card. */
  setCard(card: string, on: boolean) {
    if (this.selected.includes(card) === on) return;
    this.wantReading = null;
    this.held = null;
    this.selected = on ? [...this.selected, card] : this.selected.filter((c) => c !== card);
  }

  clear() {
    this.held = null;
    this.selected = [];
  }

  /** Unselects the card selected last. */
  dropLast() {
    this.held = null;
    this.selected = this.selected.slice(0, -1);
  }

  /** Chooses the next reading (`step` 1) or the one before (`step` -1). */
  cycleReading(step: 1 | -1) {
    this.chosen = (this.chosen + this.options.length + step) % this.options.length;
  }

  /** The turn's legal plays, asked once a turn (a Hint pressed while they are on their way waits for them):
   * false when they could not be had (the HTTP fallback failed). */
  private loadHints(pos: Position, turn: string): Promise<boolean> {
    if (this.loading?.turn === turn) return this.loading.done;
    const done = (async () => {
      let plays: HintPlay[];
      try {
        plays = await hintsOf(pos);
      } catch (e) {
        // Only the HTTP fallback fails so: say why, and ask again at the next press.
        this.reason = (e as Error).message;
        return false;
      } finally {
        if (this.loading?.turn === turn) this.loading = null;
      }
      // The turn went on while the hints were on their way: they fit a position that is gone.
      if (this.turn !== turn) return false;
      if (this.hints?.turn !== turn) this.hints = { turn, plays, shown: -1 };
      return true;
    })();
    this.loading = { turn, done };
    return done;
  }
  /** The turn whose hints are on their way. */
  private loading: { turn: string; done: Promise<boolean> } | null = null;

  /** Selects the next legal play, cycling. */
  async hint() {
    const pos = this.position();
    if (!pos) return;
    const turn = this.turn;
    if (this.hints?.turn !== turn && !(await this.loadHints(pos, turn))) return;
    const hints = this.hints;
    if (!hints || hints.plays.length === 0) return;
    hints.shown = (hints.shown + 1) % hints.plays.length;
    const h = hints.plays[hints.shown];
    this.held = null;
    this.wantReading = h;
    this.selected = [...h.cards];
  }

  play() {
    const reading = this.options[this.chosen];
    if (!reading) {
      this.playWhenRead = this.selected.length > 0 && !this.reason;
      return;
    }
    // Held while the connection is down: the selection stays in view until it goes.
    if (!this.send({ action: 'play', cards: this.selected, play: reading })) return;
    this.selected = [];
    this.wantReading = null;
  }

  /**
   * A typed play: exactly `cards` become the selection and play as Enter plays it, once their readings are in
   * unless there are several to choose from. The same cards typed again play the reading chosen meanwhile.
   */
  playCards(cards: Card[]) {
    this.typedCards = cards;
    if (!sameCards(cards, this.selected) || this.options.length === 0) {
      this.wantReading = null;
      this.selected = [...cards];
      // The readings' effect runs now, so that Play waits for these cards' readings, not the last selection's.
      flushSync();
    }
    this.play();
  }

  pass() {
    if (this.send({ action: 'pass' })) this.selected = [];
  }

  /** Sends the action now, or holds it until the connection is back (false). */
  private send(action: ClientAction): boolean {
    if (this.table.conn.status === 'open') {
      this.table.conn.act(action);
      return true;
    }
    this.held = { turn: this.turn, action };
    return false;
  }
}
