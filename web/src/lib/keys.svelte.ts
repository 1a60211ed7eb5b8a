// The keys of the names this browser protected or recovered (docs/names.md), kept in localStorage by name
// (in lower case: names compare without regard to case). Every request and every hello that acts as a name
// sends its key; a name without one here is sent without a key, which is all an unprotected name needs.
// The store is reactive, so that the home page's "protected" line follows it.

const STORE = 'ddz.keys';

function load(): Record<string, string> {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) ?? '{}');
    return kept && typeof kept === 'object' ? kept : {};
  } catch {
    return {};
  }
}

const keys = $state<Record<string, string>>(load());

// As the server reads a name: compatibility forms (full-width letters) as the plain ones, in lower case.
const id = (name: string) => name.normalize('NFKC').trim().toLowerCase();

/** The key this browser keeps for `name`, or null. */
export function nameKey(name: string): string | null {
  return keys[id(name)] ?? null;
}

/** Keeps `key` for `name` (replacing an older one after a recovery). */
export function keepKey(name: string, key: string) {
  keys[id(name)] = key;
  localStorage.setItem(STORE, JSON.stringify(keys));
}

/** Forgets the key of `name`: the server refused it (the name was recovered on another device). */
export function forgetKey(name: string) {
  delete keys[id(name)];
  localStorage.setItem(STORE, JSON.stringify(keys));
}
