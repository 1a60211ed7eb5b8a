/// <reference types="node" />
// The fair-deal checks against the spec (docs/fair-deals.md), each expected value computed here independently
// with Node's own SHA-256.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkCommitment,
  dealingSeed,
  dealingText,
  newNonce,
  NONCES_KEPT,
  ownNonceIncluded,
  rememberNonce,
  sentNonce,
} from './fair';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** 32 bytes of `byte`, as 64 hex digits. */
const hex32 = (byte: number) => byte.toString(16).padStart(2, '0').repeat(32);

const SEED = hex32(0x11);
const SALT = hex32(0x22);
const N0 = hex32(0xa0);
const N1 = hex32(0xb1);
const N2 = hex32(0xc2);

/** A sessionStorage of its own for each test. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('checkCommitment', () => {
  it('is fair where the commitment is the SHA-256 of ddz-fair/1:<seed>:<salt>', async () => {
    const commitment = sha256(`ddz-fair/1:${SEED}:${SALT}`);
    expect(await checkCommitment(SEED, SALT, commitment)).toBe('fair');
    expect(await checkCommitment(SEED, SALT, commitment.toUpperCase())).toBe('fair');
    expect(await checkCommitment(SEED, N0, commitment)).toBe('unfair');
  });
});

describe('dealingSeed', () => {
  it('is the SHA-256 of ddz-deal/2:<seed>:<nonce 0>:<nonce 1>:<nonce 2>', async () => {
    const text = `ddz-deal/2:${SEED}:${N0}:${N1}:${N2}`;
    expect(dealingText(SEED, [N0, N1, N2])).toBe(text);
    const seed = await dealingSeed(SEED, [N0, N1, N2]);
    expect(seed).toBe(sha256(text));
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes a seat without a nonce as -', async () => {
    const text = `ddz-deal/2:${SEED}:${N0}:-:${N2}`;
    expect(dealingText(SEED, [N0, null, N2])).toBe(text);
    expect(await dealingSeed(SEED, [N0, null, N2])).toBe(sha256(text));
    // Each seat's place counts: the same nonce at another seat deals other cards.
    expect(await dealingSeed(SEED, [null, N0, N2])).not.toBe(await dealingSeed(SEED, [N0, null, N2]));
  });

  it('takes two seats at a two-player table', async () => {
    expect(await dealingSeed(SEED, [null, N1])).toBe(sha256(`ddz-deal/2:${SEED}:-:${N1}`));
  });
});

describe('nonces', () => {
  it('are 32 random bytes in lowercase hex', () => {
    const a = newNonce();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(newNonce()).not.toBe(a);
  });

  it('are remembered by commitment, only the last few', () => {
    const store = memoryStorage();
    const commitments = Array.from({ length: NONCES_KEPT + 2 }, (_, i) => hex32(i));
    commitments.forEach((c, i) => rememberNonce(c, hex32(0x80 + i), store));
    expect(sentNonce(commitments.at(-1)!, store)).toBe(hex32(0x80 + NONCES_KEPT + 1));
    expect(sentNonce(commitments[2], store)).toBe(hex32(0x82));
    expect(sentNonce(commitments[0], store)).toBeNull();
    expect(sentNonce(commitments[1], store)).toBeNull();
    expect(store.length).toBe(NONCES_KEPT + 1); // the nonces and their list
    // Remembering one again keeps it, as the newest.
    rememberNonce(commitments[2], hex32(0x82), store);
    rememberNonce(hex32(0xee), N0, store);
    expect(sentNonce(commitments[2], store)).toBe(hex32(0x82));
    expect(sentNonce(commitments[3], store)).toBeNull();
  });

  it("say whether this browser's nonce went into a deal", () => {
    expect(ownNonceIncluded(N1, [N0, N1, null])).toBe('included');
    expect(ownNonceIncluded(N1.toUpperCase(), [N0, N1, null])).toBe('included');
    expect(ownNonceIncluded(N1, [N0, null, N2])).toBe('missing');
    expect(ownNonceIncluded(N1, undefined)).toBe('missing');
    expect(ownNonceIncluded(null, [N0, N1, N2])).toBeNull();
  });
});
