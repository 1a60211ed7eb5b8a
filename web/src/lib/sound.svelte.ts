// Short WebAudio beeps for "your turn" and for each play; no audio files. The setting is remembered.

export const sound = $state({ on: localStorage.getItem('ddz.sound') !== 'false' });

export function setSound(on: boolean) {
  sound.on = on;
  localStorage.setItem('ddz.sound', String(on));
}

let ctx: AudioContext | null = null;

/** Plays a tone, or two for `turn`. Silently does nothing where audio is unavailable. */
export function beep(kind: 'turn' | 'play') {
  if (!sound.on) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const notes = kind === 'turn' ? [660, 880] : [330];
    notes.forEach((freq, i) => tone(ctx!, freq, ctx!.currentTime + i * 0.12, kind === 'turn' ? 0.1 : 0.06));
  } catch {
    // No audio device or no permission: the game goes on in silence.
  }
}

function tone(ctx: AudioContext, freq: number, start: number, length: number) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}
