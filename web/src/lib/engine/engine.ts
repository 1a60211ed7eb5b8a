// The rules engine in the page: `crates/ddz-wasm`, the server's own readings and hints compiled to WebAssembly
// (`ddz.wasm`, built by the server's build.rs), so that a tap, Hint and a typed play are answered in the same
// frame, on any network, offline too. The server stays authoritative: it checks every play it is sent.
//
// The module takes and gives JSON across its linear memory: `alloc` room for the position, `readings` or `hints`
// answer a packed pointer and length of the body `POST /api/readings` or `POST /api/hints` would answer, which
// `dealloc` frees. Should the module fail to load, the answers come from those endpoints instead.
//
// `offline` is Play vs 2 Bots without the server (`crates/ddz-wasm/src/offline.rs`): the page keeps the table,
// the module replays it and says what the server's room would, with the next bot's move.

import { hints as fetchHints, readings as fetchReadings } from '../api';
import type { Action, BotKind, DealView, Endgame, HintPlay, Hints, Payment, Position, Reading, ReadingsAnswer, TableRules } from '../wire';
import wasmUrl from './ddz.wasm?url';

/** The module's exports (`crates/ddz-wasm/src/lib.rs`). */
type Exports = {
  memory: WebAssembly.Memory;
  alloc(len: number): number;
  dealloc(ptr: number, len: number): void;
  readings(ptr: number, len: number): bigint;
  hints(ptr: number, len: number): bigint;
  offline(ptr: number, len: number): bigint;
  puzzle(ptr: number, len: number): bigint;
};

/** A question about a puzzle's position (`PuzzleAsk` in `crates/ddz-wasm/src/puzzle.rs`): the position, and the
 * move made from it if one was (`null`: a pass). */
export type PuzzleAsk = { endgame: Endgame; move?: Reading | null };

/** The solver's answer (`PuzzleAnswer`): the position asked about (after the move), or the deal's end. */
export type PuzzleAnswer = {
  endgame: Endgame | null;
  landlord_won: boolean | null;
  moves: (Reading | null)[];
  winning: (Reading | null)[];
  defence: Reading | null | undefined;
  line: (Reading | null)[];
};

/** A table the page keeps (`OfflineTable` in `crates/ddz-wasm/src/offline.rs`). */
export type OfflineTable = {
  /** The table type (each deal has its own option: the Wild may be switched between deals). */
  rules: TableRules;
  /** By seat: the player's name, and '' for a bot's seat (the engine names it as the server names its bots). */
  names: string[];
  /** By seat: the bot's level, or null for the player. */
  bots: (BotKind | null)[];
  /** Every deal so far (its rules, its seed of 64 hex digits, its actions), the last one possibly running. */
  deals: { rules: TableRules; seed: string; actions: Action[] }[];
  /** The seat whose view is wanted. */
  seat: number;
};

/** What the offline table shows (`OfflineState`): the last deal as the seat sees it, and the next bot's move. */
export type OfflineState = {
  deal: DealView | null;
  deals_played: number;
  balances: number[];
  settlement: Payment[];
  bot: Action | null;
  /** Each seat's name: the player's, and the bots' as the server names them (`Bot Normal`, `Bot Normal 2`). */
  names: string[];
};

/** The engine's answers to a position, synchronously. */
export type Engine = {
  readings(pos: Position): ReadingsAnswer;
  hints(pos: Position): Hints;
  /** Throws the rules' reason for an action they refuse. */
  offline(table: OfflineTable): OfflineState;
  /** The exact solver on a puzzle's position; throws for a move not legal there. */
  puzzle(ask: PuzzleAsk): PuzzleAnswer;
};

/** The engine over an instantiated module. A malformed position throws with the engine's reason. */
export function engineOf(instance: WebAssembly.Instance): Engine {
  const wasm = instance.exports as unknown as Exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  function call<T>(exported: 'readings' | 'hints' | 'offline' | 'puzzle', question: Position | OfflineTable | PuzzleAsk): T {
    const input = encoder.encode(JSON.stringify(question));
    const ptr = wasm.alloc(input.length);
    new Uint8Array(wasm.memory.buffer, ptr, input.length).set(input);
    const packed = wasm[exported](ptr, input.length);
    const [at, len] = [Number(packed >> 32n), Number(packed & 0xffffffffn)];
    const body = JSON.parse(decoder.decode(new Uint8Array(wasm.memory.buffer, at, len)));
    wasm.dealloc(at, len);
    if (typeof body.message === 'string') throw new Error(body.message);
    return body as T;
  }
  return {
    readings: (pos) => call('readings', pos),
    hints: (pos) => call('hints', pos),
    offline: (table) => call('offline', table),
    puzzle: (ask) => call('puzzle', ask),
  };
}

/** Instantiates the module from its bytes (the unit tests read them from disk). */
export async function engineFromBytes(bytes: BufferSource): Promise<Engine> {
  return engineOf((await WebAssembly.instantiate(bytes)).instance);
}

async function fetchEngine(): Promise<Engine> {
  // Streaming compiles while the bytes arrive; a server that names the type otherwise gets the plain way.
  try {
    return engineOf((await WebAssembly.instantiateStreaming(fetch(wasmUrl))).instance);
  } catch {
    return engineFromBytes(await (await fetch(wasmUrl)).arrayBuffer());
  }
}

let loaded: Engine | null = null;
let loading: Promise<Engine | null> | null = null;

/** Loads the module once (the table starts it as it opens); null if it cannot be loaded. */
export function loadEngine(): Promise<Engine | null> {
  loading ??= fetchEngine().then(
    (engine) => (loaded = engine),
    () => null,
  );
  return loading;
}

/** The readings of `pos.cards`: at once from the engine, or from the server while it loads or if it failed. */
export function readingsOf(pos: Position): ReadingsAnswer | Promise<ReadingsAnswer> {
  if (loaded) return loaded.readings(pos);
  return loadEngine().then((engine) => (engine ? engine.readings(pos) : fetchReadings(pos)));
}

/** Every legal play from `pos.hand`, the same way. */
export function hintsOf(pos: Position): HintPlay[] | Promise<HintPlay[]> {
  if (loaded) return loaded.hints(pos).plays;
  return loadEngine().then((engine) => (engine ? engine.hints(pos).plays : fetchHints(pos)));
}
