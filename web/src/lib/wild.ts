// The Wild default (the settings menu): whether new bot tables and rooms start with the Wild at House and the
// Wild Rank at No Shuffle and Two Player. On until the player turns it off; remembered in this browser.

const KEY = 'ddz.wild';

export function wildDefault(): boolean {
  return localStorage.getItem(KEY) !== 'false';
}

export function setWildDefault(on: boolean) {
  localStorage.setItem(KEY, String(on));
}
