// The table's sounds, spoken calls and motion, and their settings (remembered in localStorage):
// - sounds are synthesized WebAudio tones, one pattern per kind of event (`SoundKind`); no audio files;
// - spoken calls use the browser's own speech synthesis (`speechSynthesis`, no voice files and so no licence
//   to keep), in the page's language, where the browser has a voice for it;
// - motion (the deal, plays travelling, the effects) is on unless the setting or the system asks for less;
// - and the one setting of play kept beside them: passing by itself when nothing beats the play.
// A test page that defines `window.__sounds` or `window.__spoken` gets every sound or call made written there.

import type { SoundKind } from './feel';

const stored = (key: string) => (typeof localStorage === 'undefined' ? null : localStorage.getItem(key));

export const sound = $state({
  on: stored('ddz.sound') !== 'false',
  /** 0 to 1. */
  volume: Number(stored('ddz.volume') ?? 0.7),
  /** Spoken calls for plays and bids. */
  voice: stored('ddz.voice') !== 'false',
  /** The table's animations (the system's reduced motion turns them off as well). */
  motion: stored('ddz.motion') !== 'false',
  /** Pass by itself when nothing in the hand beats the play (off unless chosen). */
  autoPass: stored('ddz.autoPass') === 'true',
});

export function setAutoPass(on: boolean) {
  sound.autoPass = on;
  localStorage.setItem('ddz.autoPass', String(on));
}

export function setSound(on: boolean) {
  sound.on = on;
  localStorage.setItem('ddz.sound', String(on));
}

export function setVolume(volume: number) {
  sound.volume = Math.min(1, Math.max(0, volume));
  localStorage.setItem('ddz.volume', String(sound.volume));
}

export function setVoice(on: boolean) {
  sound.voice = on;
  localStorage.setItem('ddz.voice', String(on));
}

export function setMotion(on: boolean) {
  sound.motion = on;
  localStorage.setItem('ddz.motion', String(on));
}

/** Whether the table animates now: the setting, and no reduced motion asked by the system. */
export function moving(): boolean {
  return sound.motion && !matchMedia('(prefers-reduced-motion: reduce)').matches;
}

type Log = { __sounds?: string[]; __spoken?: string[]; __motions?: string[] };

/** Notes a motion that ran, for the tests. */
export function noteMotion(kind: string) {
  (window as Log).__motions?.push(kind);
}

/** Each kind's tones: [frequency in Hz, start in s, length in s], and the wave. */
const PATTERNS: Record<SoundKind, { wave: OscillatorType; notes: [number, number, number][] }> = {
  play: { wave: 'triangle', notes: [[330, 0, 0.06]] },
  pass: { wave: 'sine', notes: [[260, 0, 0.08], [196, 0.08, 0.1]] },
  bomb: { wave: 'sawtooth', notes: [[110, 0, 0.25], [82, 0.05, 0.3]] },
  rocket: { wave: 'square', notes: [[440, 0, 0.08], [660, 0.07, 0.08], [990, 0.14, 0.16]] },
  airplane: { wave: 'triangle', notes: [[523, 0, 0.1], [659, 0.09, 0.1], [784, 0.18, 0.14]] },
  spring: { wave: 'sine', notes: [[784, 0, 0.1], [988, 0.1, 0.1], [1175, 0.2, 0.1], [1568, 0.3, 0.2]] },
  turn: { wave: 'sine', notes: [[660, 0, 0.1], [880, 0.12, 0.1]] },
  clock: { wave: 'square', notes: [[1200, 0, 0.04]] },
  win: { wave: 'triangle', notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.25]] },
  loss: { wave: 'triangle', notes: [[392, 0, 0.15], [330, 0.15, 0.15], [262, 0.3, 0.3]] },
  chat: { wave: 'sine', notes: [[880, 0, 0.05]] },
};

let ctx: AudioContext | null = null;

/** Plays a kind's tones. Silently does nothing where audio is unavailable. */
export function playSound(kind: SoundKind) {
  if (!sound.on || sound.volume <= 0) return;
  (window as Log).__sounds?.push(kind);
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const { wave, notes } = PATTERNS[kind];
    for (const [freq, at, length] of notes) tone(ctx, wave, freq, ctx.currentTime + at, length);
  } catch {
    // No audio device or no permission: the game goes on in silence.
  }
}

function tone(ctx: AudioContext, wave: OscillatorType, freq: number, start: number, length: number) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = wave;
  osc.frequency.value = freq;
  // The square and sawtooth waves sound louder than the sine: a little less of them.
  const peak = 0.15 * sound.volume * (wave === 'sine' || wave === 'triangle' ? 1 : 0.5);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, peak), start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** Says a call in the language `tag` (BCP 47) where the browser can speak; a new call cuts off the last. */
export function speak(text: string, tag: string) {
  if (!sound.on || !sound.voice || sound.volume <= 0) return;
  (window as Log).__spoken?.push(text);
  if (typeof speechSynthesis === 'undefined') return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = tag;
  utterance.volume = sound.volume;
  utterance.rate = 1.2;
  speechSynthesis.cancel();
  speechSynthesis.speak(utterance);
}
