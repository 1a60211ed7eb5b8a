// The screen's shape where a page lays out differently rather than only smaller: a phone held sideways (short
// and wide), as the shell's side rail and the hall's no-scroll grid take it, and a desktop (the hall's larger
// tiles): the same queries as their CSS.

export const SIDEWAYS = '(max-height: 500px) and (orientation: landscape)';
export const DESKTOP = '(min-width: 1200px) and (min-height: 700px)';

function watch(query: string, set: (matches: boolean) => void): boolean {
  if (typeof matchMedia !== 'function') return false;
  const list = matchMedia(query);
  list.addEventListener('change', (e) => set(e.matches));
  return list.matches;
}

export const screen = $state({ sideways: false, desktop: false });
screen.sideways = watch(SIDEWAYS, (on) => (screen.sideways = on));
screen.desktop = watch(DESKTOP, (on) => (screen.desktop = on));
