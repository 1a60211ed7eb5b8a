// Checks a deal's commitment in the browser (docs/fair-deals.md): the SHA-256 of `ddz-fair/1:<seed>:<salt>`,
// as 64 lowercase hex digits, must be the commitment published before the deal.

/** How a check came out; `unavailable` where the page has no `crypto.subtle` (not a secure context). */
export type FairCheck = 'fair' | 'unfair' | 'unavailable';

export async function checkCommitment(seed: string, salt: string, commitment: string): Promise<FairCheck> {
  if (!globalThis.crypto?.subtle) return 'unavailable';
  const text = new TextEncoder().encode(`ddz-fair/1:${seed}:${salt}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', text));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return hex === commitment.toLowerCase() ? 'fair' : 'unfair';
}
