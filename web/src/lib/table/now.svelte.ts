// The time now, for the clocks the table shows (the turn ring around the acting seat's face, the top bar's
// deal limit): one ticker, four times a second, while anything reads it.

import { createSubscriber } from 'svelte/reactivity';

const subscribe = createSubscriber((update) => {
  const timer = setInterval(update, 250);
  return () => clearInterval(timer);
});

/** Milliseconds since the epoch, re-read by whatever shows it four times a second. */
export function now(): number {
  subscribe();
  return Date.now();
}
