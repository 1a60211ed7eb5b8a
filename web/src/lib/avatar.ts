// Avatars, drawn in the page from a name (DiceBear, bundled with the client: no request leaves the page):
// DiceBear's "Thumbs" for people (CC0 1.0) and "Bottts Neutral" for bots (free for personal and commercial
// use, bottts.com). The same name always gives the same face, everywhere: the seats, the lobby, the boards
// and the stats page. The styles load once, after the first screen is up, so that they never slow it.

import type { Avatar as AvatarClass, Style } from '@dicebear/core';

type Styles = { Avatar: typeof AvatarClass; person: Style; bot: Style };

let styles: Promise<Styles> | null = null;
const drawn = new Map<string, string>();

function loadStyles(): Promise<Styles> {
  // The library too (most of its weight), so that the first screen never waits for it.
  styles ??= Promise.all([
    import('@dicebear/core'),
    import('@dicebear/styles/thumbs.json'),
    import('@dicebear/styles/bottts-neutral.json'),
  ]).then(([{ Avatar, Style }, person, bot]) => ({ Avatar, person: new Style(person.default), bot: new Style(bot.default) }));
  return styles;
}

/** The avatar of `name` (a bot's when `bot`) as a data URI, drawn once per name. */
export async function avatarUri(name: string, bot: boolean): Promise<string> {
  const key = `${bot ? 'bot' : 'person'}:${name.normalize('NFKC').toLowerCase()}`;
  const known = drawn.get(key);
  if (known) return known;
  const styles = await loadStyles();
  const uri = new styles.Avatar(styles[bot ? 'bot' : 'person'], { seed: key }).toDataUri();
  drawn.set(key, uri);
  return uri;
}
