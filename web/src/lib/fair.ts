// Fair deals in the browser (docs/fair-deals.md). Before a deal the server publishes a commitment, the SHA-256
// of `ddz-fair/1:<seed>:<salt>` as 64 lowercase hex digits; each seated player then adds a random nonce, and the
// cards are dealt from the SHA-256 of `ddz-deal/2:<seed>:<nonce 0>:<nonce 1>[:<nonce 2>]` (a seat without a
// nonce written `-`). After the deal the seed and the salt are revealed: the commitment can be checked here,
// and this browser can see that the nonce it sent went into the deal (the nonces it sent are kept in
// sessionStorage by commitment).

/** How a check came out; `unavailable` where the page has no `crypto.subtle` (not a secure context). */
export type FairCheck = 'fair' | 'unfair' | 'unavailable';

/** SHA-256 of `text` (UTF-8) in 64 lowercase hex digits; null without `crypto.subtle`. */
async function sha256Hex(text: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function checkCommitment(seed: string, salt: string, commitment: string): Promise<FairCheck> {
  const hex = await sha256Hex(`ddz-fair/1:${seed}:${salt}`);
  if (hex === null) return 'unavailable';
  return hex === commitment.toLowerCase() ? 'fair' : 'unfair';
}

/** The nonces as the dealing text writes them: each seat's nonce, or `-` for a seat that sent none. */
export function nonceParts(nonces: readonly (string | null)[]): string[] {
  return nonces.map((n) => n ?? '-');
}

/** The text whose SHA-256 the cards are dealt from: `ddz-deal/2:<seed>:<nonce 0>:<nonce 1>[:<nonce 2>]`. */
export function dealingText(seed: string, nonces: readonly (string | null)[]): string {
  return `ddz-deal/2:${seed}:${nonceParts(nonces).join(':')}`;
}

/** The seed the cards were dealt from, in 64 lowercase hex digits; null without `crypto.subtle`. */
export function dealingSeed(seed: string, nonces: readonly (string | null)[]): Promise<string | null> {
  return sha256Hex(dealingText(seed, nonces));
}

/** 32 random bytes in 64 lowercase hex digits: this player's part of the next deal. */
export function newNonce(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** Where a nonce sent for a commitment is kept: `ddz.nonce.<commitment>` = the nonce. */
const NONCE_PREFIX = 'ddz.nonce.';
/** The commitments with a kept nonce, oldest first: only the last few are kept. */
const NONCE_LIST = 'ddz.nonces';
export const NONCES_KEPT = 8;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage blocked by the browser
  }
}

/** Remembers the nonce this browser sent for the deal committed to as `commitment`, forgetting the oldest. */
export function rememberNonce(commitment: string, nonce: string, store: Storage | null = storage()) {
  if (!store) return;
  const key = commitment.toLowerCase();
  let list: string[] = [];
  try {
    const parsed: unknown = JSON.parse(store.getItem(NONCE_LIST) ?? '[]');
    if (Array.isArray(parsed)) list = parsed.filter((c): c is string => typeof c === 'string');
  } catch {
    // a damaged list starts again
  }
  list = list.filter((c) => c !== key).concat(key);
  for (const old of list.splice(0, Math.max(0, list.length - NONCES_KEPT))) store.removeItem(NONCE_PREFIX + old);
  try {
    store.setItem(NONCE_PREFIX + key, nonce);
    store.setItem(NONCE_LIST, JSON.stringify(list));
  } catch {
    // storage full or blocked: the nonce is still sent, only not checked afterwards
  }
}

/** The nonce this browser sent for the deal committed to as `commitment`, if it sent one. */
export function sentNonce(commitment: string, store: Storage | null = storage()): string | null {
  return store?.getItem(NONCE_PREFIX + commitment.toLowerCase()) ?? null;
}

/**
 * Whether a nonce this browser sent went into a deal: `included` where the deal's nonces hold it, `missing`
 * where they do not (it came after the wait, or the server left it out), null where this browser sent none.
 */
export function ownNonceIncluded(
  sent: string | null,
  nonces: readonly (string | null)[] | undefined,
): 'included' | 'missing' | null {
  if (!sent) return null;
  return nonces?.some((n) => n?.toLowerCase() === sent.toLowerCase()) ? 'included' : 'missing';
}
