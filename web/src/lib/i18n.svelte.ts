// The player's language (the languages themselves are in `lang/`): `t(key, params)` and `tn(key, n)` word a
// dictionary key in it reactively, and the choice is remembered.

import { LANGUAGE_LIST, LANGUAGES, type Key, type Lang, type Language } from './lang';

function isLang(code: string | null): code is Lang {
  return code !== null && code in LANGUAGES;
}

/** The remembered choice, else the browser's language where the client speaks it, else English. */
function initial(): Lang {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem('ddz.lang') : null;
  if (isLang(saved)) return saved;
  const browser = typeof navigator !== 'undefined' ? navigator.language : '';
  return LANGUAGE_LIST.find(([code]) => browser.startsWith(code))?.[0] ?? 'en';
}

export const i18n = $state({ lang: initial() });

/** The current language's module: its words, readings, refusals, errors and bot names. */
export function language(): Language {
  return LANGUAGES[i18n.lang];
}

/**
 * A name in the player's language where the server gave it to a bot (`Bot Hard 2`); other names as they are.
 * Replays and boards keep only the names, so the bot's level is read from its name.
 */
export function shownName(name: string): string {
  const level = botLevelOf(name);
  return level ? language().botName(name, level) : name;
}

/** The level of the server's bot called `name` ("Bot Hard 2"), or null for a person. */
export function botLevelOf(name: string): string | null {
  return name.match(/^Bot (Random|Greedy|Beginner|Easy|Normal|Hard|Bomber)(?: \d+)?$/)?.[1]?.toLowerCase() ?? null;
}

export function setLang(lang: Lang) {
  i18n.lang = lang;
  localStorage.setItem('ddz.lang', lang);
  document.documentElement.lang = language().tag;
}

export function t(key: Key, params: Record<string, string | number> = {}): string {
  const text = language().words[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`));
}

/** The words that have a form per count: `pts` has `pts_one` and `pts_other`. */
type CountKey = { [K in Key]: K extends `${infer Base}_one` ? Base : never }[Key];

/** `n` with its words (`1 bomb`, `2 bombs`, `2 个炸弹`): the form the language's plural rules choose. */
export function tn(key: CountKey, n: number): string {
  const form = new Intl.PluralRules(language().tag).select(n) === 'one' ? 'one' : 'other';
  return t(`${key}_${form}`, { n });
}
