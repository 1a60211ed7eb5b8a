// This browser's own random id (docs/ratings.md, "What counts"): drawn once and kept in localStorage, sent
// with every hello, so that two names played from one browser at a rated table do not count together. It
// says nothing about the player and is no secret: clearing site data draws a new one.

const STORE = 'ddz.browser';

/** The browser's id: 128 random bits as hex, drawn on first use. */
export function browserId(): string | null {
  try {
    let id = localStorage.getItem(STORE);
    if (!id || !/^[0-9a-f]{32}$/.test(id)) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      localStorage.setItem(STORE, id);
    }
    return id;
  } catch {
    return null; // storage refused (a private window's rules): the server compares addresses alone
  }
}
