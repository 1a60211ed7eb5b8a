// The screen's shape where a page lays out differently rather than only smaller: a phone held sideways (short
// and wide), as the shell's side rail and the hall's no-scroll grid take it (`SIDEWAYS`, the same query as
// their CSS).

export const SIDEWAYS = '(max-height: 500px) and (orientation: landscape)';

const query = typeof matchMedia === 'function' ? matchMedia(SIDEWAYS) : null;

export const screen = $state({ sideways: query?.matches ?? false });

query?.addEventListener('change', (e) => (screen.sideways = e.matches));
