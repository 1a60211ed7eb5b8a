// Play vs 2 Bots when the server cannot be reached: the table is the page's own. It keeps what the server's room
// would (the rules, the names, each deal's seed and actions) in localStorage, so that a reload finds it again,
// and asks the engine in the page (`crates/ddz-wasm/src/offline.rs`) what it shows and what the bots play: the
// same engine and the same bots as the server's. Nothing of it is rated, sent or kept anywhere else.
//
// It is a `RoomLink` like a server's `Connection`, so the table is the same table: the commands a table sends
// (act, start, close, chat, auto-play, the Wild) are answered here. A bot moves after a short pause, as at the
// server.

import type { RoomLink } from './conn.svelte';
import { loadEngine, type Engine, type OfflineState, type OfflineTable } from './engine/engine';
import { toHex } from './fair';
import { t } from './i18n.svelte';
import type { Chat, ClientAction, Command, RoomView } from './types';
import type { Action, BotKind, TableRules } from './wire';

/** Where the table is kept. */
const KEPT = 'ddz.offline';

/** The levels whose bots run in the page (`hard` thinks too long for a phone): a stronger choice plays `normal`. */
export const OFFLINE_LEVELS: readonly BotKind[] = ['beginner', 'easy', 'normal'];

/** How long a bot seems to think, in milliseconds; a House reveal's "Seen" is quicker. */
const BOT_PAUSE = 700;
const SEEN_PAUSE = 300;

/** The table as kept: what `OfflineTable` needs (`rules` are the next deal's), and whether it was closed. */
type Kept = Omit<OfflineTable, 'seat'> & {
  /** The player handed their turns to the bot (`normal`). */
  autoPlay: boolean;
  closed: boolean;
};

/** The code shown for an offline table. */
export const OFFLINE_CODE = 'OFFLINE';

function newSeed(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The kept table of `name`, if it is still open. */
function keptTable(name: string): Kept | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT) ?? 'null') as Kept | null;
    return kept && !kept.closed && kept.names[0] === name ? kept : null;
  } catch {
    return null;
  }
}

/** Whether `name` has an offline table to go back to. */
export function hasOfflineTable(name: string): boolean {
  return keptTable(name) !== null;
}

export class OfflineRoom implements RoomLink {
  room = $state<RoomView | null>(null);
  error = $state<string | null>(null);
  fatal = $state<string | null>(null);
  readonly status = 'open';
  readonly offline = true;
  onChat: ((seat: number, chat: Chat) => void) | null = null;
  private kept: Kept;
  private engine: Engine | null = null;
  private botTimer: ReturnType<typeof setTimeout> | undefined;

  /** The player's table: the one kept for `name`, or a new House table (with the Wild if `wild`) against two
   * bots of `level` (at most `normal`), its first deal dealt at once. */
  constructor(name: string, wild: boolean, level: BotKind) {
    const bots = OFFLINE_LEVELS.includes(level) ? level : 'normal';
    const rules: TableRules = { table: 'house', wild, wild_rank: false };
    this.kept = keptTable(name) ?? {
      rules,
      // The bots' seats are named by the engine, as the server names its bots.
      names: [name, '', ''],
      bots: [null, bots, bots],
      deals: [{ seed: newSeed(), actions: [], rules }],
      autoPlay: false,
      closed: false,
    };
    void loadEngine().then((engine) => {
      if (!engine) {
        this.fatal = t('offlineNoEngine');
        return;
      }
      this.engine = engine;
      this.refresh();
    });
  }

  /** The table's state from the engine, shown; then the next bot's move, after its pause. */
  private refresh(): OfflineState | null {
    if (!this.engine) return null;
    const kept = this.kept;
    const seats = kept.bots.map((bot, seat) => (seat === 0 && kept.autoPlay ? 'normal' : bot));
    const state = this.engine.offline({ ...kept, bots: seats, seat: 0 });
    localStorage.setItem(KEPT, JSON.stringify(kept));
    this.room = this.view(state);
    clearTimeout(this.botTimer);
    const bot = state.bot;
    if (bot && !kept.closed) {
      this.botTimer = setTimeout(() => this.append(bot), bot.action === 'seen' ? SEEN_PAUSE : BOT_PAUSE);
    }
    return state;
  }

  /** What a server would send for this table. */
  private view(state: OfflineState): RoomView {
    const { bots, autoPlay, closed } = this.kept;
    const names = state.names;
    return {
      code: OFFLINE_CODE,
      mode: 'bots',
      rules: this.kept.rules,
      host: names[0],
      you: 0,
      hosting: true,
      seats: names.map((name, seat) => {
        const level = bots[seat];
        return {
          seat,
          occupant: level ? { type: 'bot', name, level } : { type: 'human', name },
          connected: true,
          balance: state.balances[seat],
          auto_play: seat === 0 && autoPlay,
          rating: null,
        };
      }),
      deals_played: state.deals_played,
      deal: state.deal,
      turn_deadline: null,
      deal_deadline: null,
      log: [],
      timed_out: [],
      closed,
      settlement: closed ? state.settlement : [],
      watching: 0,
      challenge: null,
    };
  }

  /** Appends an action to the running deal; one the rules refuse is taken back, and its reason shown. */
  private append(action: Action): boolean {
    const deal = this.kept.deals.at(-1);
    if (!deal || this.kept.closed) return false;
    deal.actions.push(action);
    try {
      this.refresh();
      return true;
    } catch (e) {
      deal.actions.pop();
      this.error = (e as Error).message;
      this.refresh();
      return false;
    }
  }

  act(action: ClientAction) {
    this.error = null;
    if (!this.room?.deal?.waiting_for.includes(0)) {
      this.error = t('notYourTurnOffline');
      return;
    }
    this.append({ ...action, seat: 0 });
  }

  send(command: Command) {
    this.error = null;
    const kept = this.kept;
    switch (command.type) {
      case 'start':
        if (kept.closed || (this.room?.deal && !this.room.deal.result)) return;
        kept.deals.push({ seed: newSeed(), actions: [], rules: kept.rules });
        this.refresh();
        return;
      case 'set_wild':
        kept.rules = { ...kept.rules, wild: command.on };
        this.refresh();
        return;
      case 'auto_play':
        kept.autoPlay = command.on;
        this.refresh();
        return;
      case 'close': {
        // A deal closed half-way is refunded (RULES.md), as at the server.
        const deal = kept.deals.at(-1);
        if (deal && this.room?.deal && !this.room.deal.result) deal.actions.push({ action: 'abandon' });
        kept.closed = true;
        this.refresh();
        return;
      }
      case 'chat':
        this.onChat?.(0, command.chat);
        return;
      default:
        // Nothing else means anything at a table with no server: no nonces, no seats to change, no sync.
        return;
    }
  }

  close() {
    clearTimeout(this.botTimer);
  }
}
