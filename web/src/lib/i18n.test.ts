import { afterEach, describe, expect, it } from 'vitest';
import { i18n, shownName } from './i18n.svelte';

afterEach(() => {
  i18n.lang = 'en';
});

describe('shownName', () => {
  it("words the server's bot names in the player's language, as the table does", () => {
    i18n.lang = 'zh';
    expect(shownName('Bot Hard')).toBe('困难机器人');
    expect(shownName('Bot Hard 2')).toBe('困难机器人 2');
    expect(shownName('Bot Normal')).toBe('普通机器人');
    i18n.lang = 'en';
    expect(shownName('Bot Hard 2')).toBe('Bot Hard 2');
  });

  it("leaves a player's name alone", () => {
    i18n.lang = 'zh';
    expect(shownName('Ivy')).toBe('Ivy');
    expect(shownName('Bot Hardy')).toBe('Bot Hardy');
    expect(shownName('Robot Hard')).toBe('Robot Hard');
  });
});
