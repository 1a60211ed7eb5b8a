// The browser tests' shared harness: the server's address, Chromium, pages, and playing through the UI.
// Each test file calls `useBrowser()` once. DDZ_URL names the server; screenshots go to docs/screenshots/
// (DDZ_SCREENSHOTS overrides).

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { axeViolations, layoutProblems } from './layout.mjs';

export const BASE = process.env.DDZ_URL;
if (!BASE) throw new Error('set DDZ_URL to the server, e.g. http://127.0.0.1:8080');
export const SHOTS = process.env.DDZ_SCREENSHOTS ?? join(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
mkdirSync(SHOTS, { recursive: true });
/** The screens the client must fit: phones held upright and sideways, a laptop, a desktop. */
export const SMALL_PHONE = { width: 360, height: 640 };
export const PORTRAIT = { width: 390, height: 844 };
export const PHONE = { width: 844, height: 390 };
export const LAPTOP = { width: 1366, height: 768 };
export const DESKTOP = { width: 1920, height: 1080 };
export const SCREENS = [SMALL_PHONE, PORTRAIT, PHONE, LAPTOP, DESKTOP];

let browser;

/** Launches Chromium before the calling file's tests and closes it after them. */
export function useBrowser() {
  before(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      // playwright-core gives each launch a fresh temporary --user-data-dir.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
  });
  after(async () => {
    await browser?.close();
  });
}

/**
 * A page in a new browser context. Its system asks for reduced motion unless `motion` (the table's animations
 * then never leave a card mid-flight under a layout check); `feel.mjs` tests the animations themselves.
 */
export async function newPage(viewport = { width: 1280, height: 800 }, { motion = false } = {}) {
  // Phones come with a touch screen.
  const touch = isPhone(viewport);
  const context = await browser.newContext({
    viewport,
    locale: 'en-US',
    hasTouch: touch,
    isMobile: touch,
    reducedMotion: motion ? 'no-preference' : 'reduce',
  });
  // Count the tones the client plays (its sound is WebAudio oscillators), and keep the client's own logs of
  // the sounds by kind, the spoken calls and the animations run (`lib/sound.svelte.ts`).
  await context.addInitScript(() => {
    window.__sounds = [];
    window.__spoken = [];
    window.__motions = [];
    window.__tones = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () {
      window.__tones += 1;
      return create.call(this);
    };
  });
  const page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  return page;
}

export const isPhone = (viewport) => viewport.width < 900;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

export async function api(path, body) {
  const res = await fetch(BASE + path, body && {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `${path}: HTTP ${res.status}`);
  // Registering and withdrawing answer 204: nothing to read.
  return res.status === 204 ? null : res.json();
}

const roomCode = (page) => new URL(page.url()).searchParams.get('room');
/** The room as a spectator sees it: public information only. */
export const publicView = (page) => api(`/api/rooms/${roomCode(page)}`);

export async function handCards(page) {
  return page.locator('[data-testid=hand] .card').evaluateAll((els) => els.map((e) => e.dataset.card));
}

/** The middle of the strip of a hand's card that the next card leaves in view (its top-left part). */
export async function stripOf(page, card) {
  const b = await page.locator(`[data-testid=hand] [data-card="${card}"]`).boundingBox();
  return { x: b.x + b.width * 0.22, y: b.y + b.height * 0.3 };
}

/** A tap on a touch screen, a click elsewhere, at a point of the page. */
async function tapAt(page, { x, y }) {
  if (isPhone(page.viewportSize())) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** Taps or clicks a card of the hand where it shows. */
export async function tapCard(page, card) {
  await tapAt(page, await stripOf(page, card));
}

/** Taps or clicks the centre of what `locator` finds, as a person would (whatever lies on top gets it), scrolled
 * into view first. */
export async function tap(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  const b = await locator.boundingBox();
  await tapAt(page, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
}

/** Fails with what a person would notice when the screen is not right (`layout.mjs`). */
export async function assertLayout(page, when) {
  const { width, height } = page.viewportSize();
  const problems = await layoutProblems(page);
  // A failure leaves a picture of what was wrong beside the run's other screenshots.
  if (problems.length > 0) await shot(page, `failed-${width}x${height}-${when.replace(/\W+/g, '-')}`);
  assert.deepEqual(problems, [], `${when} at ${width}x${height}`);
}

export async function selectedCards(page) {
  return page.locator('[data-testid=hand] .card[aria-pressed=true]').evaluateAll((els) => els.map((e) => e.dataset.card));
}

export const rankOf = (card) => (card.length === 2 && !card.endsWith('J') ? card[0] : card);
export const ranks = (cards) => cards.map(rankOf).sort().join('');

/**
 * Opens the hall (unless the page is there) and makes `name` the player's, as a person does: taps their card,
 * types the name and taps Done. A tile tapped then plays at once. (Without a name, the first tile tapped asks
 * for one instead: `answerName`.)
 */
export async function asPlayer(page, name) {
  if (!(await page.getByTestId('hall').isVisible())) await page.goto(BASE);
  await tap(page, page.getByTestId('player-card'));
  const dialog = page.getByTestId('player-dialog');
  await dialog.getByTestId('name').fill(name);
  await tap(page, dialog.getByTestId('name-done'));
  await dialog.waitFor({ state: 'detached' });
  await page.getByTestId('card-name').filter({ hasText: name }).waitFor();
}

/** Answers the name dialog a tile opened when no name was known; the tapped action then goes on. */
export async function answerName(page, name) {
  const dialog = page.getByTestId('name-dialog');
  await dialog.getByTestId('name').fill(name);
  await tap(page, dialog.getByTestId('name-ok'));
  await dialog.waitFor({ state: 'detached' });
}

/** Chooses the language in the shell's menu (`label` as its button says it: `English`, `简体中文`) and closes it. */
export async function chooseLanguage(page, label) {
  await tap(page, page.getByTestId('nav-menu'));
  const menu = page.getByTestId('menu');
  await tap(page, menu.getByRole('button', { name: label }));
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
}

/** A name no other test uses (the server keeps players by name across rooms), without spaces. */
let names = 0;
export const uniqueName = (base) => `${base}${++names}`;

const TABLE_NAMES = { house: 'House', noshuffle: 'No Shuffle', twoplayer: 'Two Player' };
const TABLE_TYPES = { house: 'house', noshuffle: 'no_shuffle', twoplayer: 'two_player' };

/** The host creates an invite room through the UI; guests join through the link. Returns the pages, host first. */
export async function inviteRoom(table, guests, viewports = []) {
  const host = await newPage(viewports[0]);
  await asPlayer(host, uniqueName('Host'));
  await tap(host, host.getByTestId('invite-friend'));
  await tap(host, host.getByTestId(`invite-${TABLE_TYPES[table]}`));
  const link = await host.getByLabel('Invite link').inputValue();
  await host.getByRole('button', { name: 'Enter room' }).click();
  // The waiting room shows the same link, to send to the guests.
  assert.equal(await host.getByTestId('invite').getByRole('textbox').inputValue(), link);
  await host.getByTestId('invite').getByRole('button', { name: 'Copy' }).waitFor();
  const pages = [host];
  for (let i = 0; i < guests; i++) {
    const guest = await newPage(viewports[i + 1]);
    await guest.goto(link);
    // The join page says what the link joins.
    const about = await guest.getByTestId('join-about').innerText();
    assert.match(about, new RegExp(`^${TABLE_NAMES[table]}.* · Host: Host\\d+\\n`), about);
    if (i === 0) assert.deepEqual(await axeViolations(guest), [], 'axe on the join page');
    await guest.getByLabel('Your name').fill(uniqueName(`Guest${i + 1}`));
    await guest.getByRole('button', { name: 'Join' }).click();
    await guest.locator('.seat .name', { hasText: '(you)' }).waitFor();
    pages.push(guest);
  }
  // Every seat taken: the invite is gone, and the host deals the first hand.
  if (pages.length === (table === 'twoplayer' ? 2 : 3)) {
    await host.getByTestId('invite').waitFor({ state: 'detached' });
    await host.getByRole('button', { name: 'Deal the first hand' }).waitFor();
  }
  return pages;
}

/** The buttons of a page's prompt and whether the deal's result is showing, in one round trip. */
export function probe(page) {
  return page.evaluate(() => ({
    over: !!document.querySelector('[data-testid=result]'),
    buttons: [...document.querySelectorAll('.controls .prompt > button:not(.keyboard)')].map((b) => b.textContent.trim()),
  }));
}

export const button = (page, name) => page.getByRole('button', { name, exact: true });

/** Clicks a prompt button and waits for the server's answer to take it away. */
export async function press(page, name) {
  const b = button(page, name);
  await b.click();
  await b.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
}

/** Hint, then Play what it selected; Pass when nothing beats the trick. */
export async function hintAndPlay(page) {
  await button(page, 'Hint').click();
  const play = button(page, 'Play').and(page.locator(':enabled'));
  const none = page.getByRole('status').filter({ hasText: 'Nothing in your hand beats it' });
  await play.or(none).waitFor({ timeout: 10_000 });
  if (await play.isVisible()) await press(page, 'Play');
  else await press(page, 'Pass');
}

/**
 * Plays a deal through the UI of every page until all show the result, checking each page's screen before
 * each of its actions (`assertLayout`). `auction(page, buttons)` names the auction button to press (default:
 * take, the lowest bid, call, no rob). `onPlay(page)` is asked first at each turn to play: it returns true
 * when it played the turn itself, or 'stop' to return that page at once.
 */
export async function playDeal(pages, { auction, onPlay, timeout = 150_000 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    assert.ok(Date.now() < end, 'the deal ends in time');
    let over = 0;
    let acted = false;
    for (const page of pages) {
      const { over: done, buttons } = await probe(page);
      if (buttons.length > 0) await assertLayout(page, `before pressing one of ${buttons.join(', ')}`);
      if (done) {
        over += 1;
      } else if (buttons.includes('Seen')) {
        await press(page, 'Seen');
      } else if (buttons.includes('Hint')) {
        const done = onPlay && (await onPlay(page));
        if (done === 'stop') return page;
        if (!done) await hintAndPlay(page);
      } else if (buttons.length > 0) {
        const choice =
          auction?.(page, buttons) ??
          buttons.find((b) => b === 'Take the middle cards' || b.startsWith('Bid ') || b === 'Call landlord') ??
          buttons.find((b) => b === "Don't rob");
        await press(page, choice);
      } else continue;
      acted = true;
    }
    if (over === pages.length) return;
    if (!acted) await sleep(100);
  }
}

/** The result headings and score tables, which every seat must see alike: their words, not their layout (a
 * phone hides some of the table's columns from sight, not from the page). */
export const resultText = (page) =>
  page
    .getByTestId('result')
    .locator('h2, table')
    .evaluateAll((els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()));

/** At a deal's end each seat that holds cards shows them face up, the cards the public record says. */
export async function assertHandsFaceUp(page) {
  const hands = (await publicView(page)).deal.hands_at_end;
  for (const [seat, cards] of hands.entries()) {
    const shown = page.getByTestId(`hand-end-${seat}`).locator('[data-card]');
    const faceUp = await shown.evaluateAll((els) => els.map((e) => e.dataset.card));
    assert.deepEqual(faceUp.sort(), [...cards].sort(), `seat ${seat}'s hand face up`);
  }
}
