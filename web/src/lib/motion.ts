// The table's motion, each under 400 ms and none of it in the way of input (nothing waits for an animation,
// and pointer events go through): Svelte transitions and the Web Animations API, no library. Every one of
// them is skipped when `moving()` says no (the setting, or the system's reduced motion).

import { cubicOut } from 'svelte/easing';
import type { TransitionConfig } from 'svelte/transition';
import { moving, noteMotion } from './sound.svelte';

const STILL: TransitionConfig = { duration: 0 };

/** The hand dealt: its cards fly in one after the other from above (onto the hand element, on mount). */
export function dealt(hand: HTMLElement) {
  if (!moving()) return;
  noteMotion('deal');
  hand.querySelectorAll<HTMLElement>('.card').forEach((card, i) =>
    card.animate([{ transform: 'translateY(-40vh) scale(0.5)', opacity: 0 }, { transform: 'none', opacity: 1 }], {
      duration: 200,
      delay: i * 10,
      easing: 'ease-out',
      fill: 'backwards',
    }),
  );
}

/** A play travelling to the middle from the element `from` names (a seat's nameplate, or the hand). */
export function travel(node: HTMLElement, from: string): TransitionConfig {
  const origin = moving() ? document.querySelector(from)?.getBoundingClientRect() : null;
  if (!origin) return STILL;
  noteMotion('travel');
  const target = node.getBoundingClientRect();
  const dx = origin.x + origin.width / 2 - (target.x + target.width / 2);
  const dy = origin.y + origin.height / 2 - (target.y + target.height / 2);
  return {
    duration: 260,
    easing: cubicOut,
    css: (t, u) => `transform: translate(${dx * u}px, ${dy * u}px) scale(${0.6 + 0.4 * t})`,
  };
}

/** The trick cleared from the middle. */
export function cleared(_node: HTMLElement): TransitionConfig {
  if (!moving()) return STILL;
  noteMotion('clear');
  return { duration: 200, css: (t) => `opacity: ${t}; transform: scale(${0.9 + 0.1 * t})` };
}

/** The middle or bottom cards turned over when the landlord is known. */
export function turnedOver(_node: HTMLElement): TransitionConfig {
  if (!moving()) return STILL;
  noteMotion('turn-over');
  return { duration: 350, easing: cubicOut, css: (t) => `transform: perspective(30em) rotateY(${(1 - t) * 90}deg)` };
}
