// The hall at every size players hold it (issue 58), in English and Chinese, as the table is measured
// (`table-layout.mjs`): phones on their side (640x360 to 932x430) first, upright, a laptop and a desktop. Two
// states in each page: a fresh server as a first visit finds it (the real server: its built-in events, no name),
// and a busy one (`fixtures/hall-*.json`, played into the page through stubs of `GET /api/hall`, the
// `watch_hall` socket, the player's page and the tournament and room the player is on): many waiting and
// playing, open events with long titles, six public tables, a long protected name with a rating in every
// family and every challenge played, and the way back to the player's table; there the player's card and (on a
// phone held sideways) the public tables' sheet are opened too, and must fit the screen. Each screen must pass
// `layoutProblems` (nothing overlaps, nothing is cut or off screen, every tap target at least 44px and
// uncovered), scroll neither sideways nor (on a phone held sideways) down, and have axe find nothing serious.
// Screenshots go to target/e2e-screenshots/hall/; with DDZ_HALL_SHOTS=docs/screenshots the README's three
// (the busy hall sideways and upright in English, sideways in Chinese).
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/hall-layout.mjs

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SIZES, axeViolations, layoutProblems } from './layout.mjs';
import { BASE, newPage, useBrowser } from './harness.mjs';

useBrowser();

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, '../../target/e2e-screenshots/hall');
const README_SHOTS = process.env.DDZ_HALL_SHOTS;
mkdirSync(OUT, { recursive: true });

const fixture = (name) => JSON.parse(readFileSync(join(here, `fixtures/hall-${name}.json`), 'utf8'));

/** The busy hall, its clocks moved to now (the countdowns run from the fixture's `now`). */
function busyHall() {
  const hall = fixture('busy');
  const shift = Date.now() - hall.now;
  const move = (summary) => {
    for (const key of ['created_at', 'starts_at', 'started_at']) if (summary[key] !== undefined) summary[key] += shift;
    if (summary.format.kind === 'scheduled') summary.format.starts_at += shift;
  };
  hall.now += shift;
  [...hall.tournaments, ...hall.running].forEach(move);
  return hall;
}

const PLAYER = fixture('player');
/** The room the busy player sits at: a table fixture's, with the player in its first seat. */
const SEATED = JSON.parse(readFileSync(join(here, 'fixtures/table-trick.json'), 'utf8')).room;
SEATED.seats[0].occupant.name = PLAYER.name;
// The seat's key as the server gives it (the page finds its player's seat by key, never by comparing names).
SEATED.seats[0].key = (await (await fetch(`${BASE}/api/names/${encodeURIComponent(PLAYER.name)}`)).json()).key;

/**
 * A page at `size` in `lang` whose hall, player, tournament and room requests this test answers while the
 * state is busy, and the server answers while it is fresh.
 */
async function hallPage(size, lang) {
  const page = await newPage(size);
  let busy = false;
  await page.addInitScript((lang) => localStorage.setItem('ddz.lang', lang), lang);
  const stub = (pattern, body) =>
    page.route(pattern, (route) => (busy ? route.fulfill({ json: typeof body === 'function' ? body() : body }) : route.continue()));
  await stub(/\/api\/hall$/, busyHall);
  await stub(/\/api\/players\/[^/]+$/, PLAYER);
  await stub(new RegExp(`/api/rooms/${SEATED.code}$`), SEATED);
  await page.route(/\/api\/tournaments\/[a-z0-9-]+\/page\?/, (route) => {
    if (!busy) return route.continue();
    // The player is registered on the hourly event only: another event's page is the same without them.
    const follow = fixture('tournament');
    const id = new URL(route.request().url()).pathname.split('/')[3];
    if (id !== follow.page.summary.id) {
      follow.page.summary = busyHall().tournaments.find((e) => e.id === id);
      follow.page.leaders = follow.page.leaders.filter((e) => e.name !== PLAYER.name);
      delete follow.you;
    }
    return route.fulfill({ json: follow });
  });
  await page.routeWebSocket(/\/ws/, (ws) => {
    if (!busy) return ws.connectToServer();
    ws.onMessage((text) => {
      const command = JSON.parse(text);
      if (command.type === 'watch_hall') ws.send(JSON.stringify({ type: 'hall', hall: busyHall() }));
      if (command.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
  });
  /** Shows the hall in a state: a first visit to a fresh server, or the busy player's return to a busy one. */
  const show = async (state) => {
    busy = state === 'busy';
    await page.goto(BASE);
    await page.evaluate(
      ({ busy, name, code }) => {
        localStorage.clear();
        if (busy) {
          localStorage.setItem('ddz.name', name);
          localStorage.setItem('ddz.table', JSON.stringify({ code, name }));
        }
      },
      { busy, name: PLAYER.name, code: SEATED.code },
    );
    await page.evaluate((lang) => localStorage.setItem('ddz.lang', lang), lang);
    await page.reload();
    await page.getByTestId('live-counts').filter({ hasText: /\d/ }).waitFor();
    if (busy) {
      await page.getByTestId('back-to-table').waitFor();
      await page.getByTestId('card-rating-two_player').waitFor();
      await page.getByTestId('event-scheduled').and(page.locator('a')).waitFor();
    } else {
      // A fresh server's built-in events: a sit-and-go of each table type and the hourly House event.
      for (const kind of ['sng-house', 'sng-no_shuffle', 'sng-two_player', 'scheduled']) await page.getByTestId(`event-${kind}`).waitFor();
    }
    await page.waitForTimeout(100); // the faces drawn
  };
  return { page, show };
}

/** The page does not scroll sideways anywhere, nor down on a phone held sideways; no part of the hall scrolls. */
function scrollProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const root = document.scrollingElement;
    const sideways = innerHeight <= 500 && innerWidth > innerHeight;
    if (root.scrollWidth > innerWidth + 1) problems.push(`the page is ${root.scrollWidth}px wide on ${innerWidth}px`);
    if (sideways && root.scrollHeight > innerHeight + 1) problems.push(`the page scrolls: ${root.scrollHeight}px on ${innerHeight}px`);
    for (const el of document.querySelectorAll('.hall *:not(.sr-only)')) {
      const style = getComputedStyle(el);
      if (['auto', 'scroll', 'hidden'].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1)
        problems.push(`${el.className || el.tagName} needs ${el.scrollHeight - el.clientHeight}px more height`);
    }
    return problems;
  });
}

/**
 * Opens a sheet from the hall (the player's card, the public tables) and measures it over the hall: it fits the
 * screen and passes `layoutProblems`; then closes it.
 */
async function sheetProblems(page, opener, sheet) {
  await page.getByTestId(opener).click();
  const open = page.getByTestId(sheet);
  await open.waitFor();
  const problems = await layoutProblems(page);
  const box = await open.boundingBox();
  const { width, height } = page.viewportSize();
  if (box.x < 0 || box.y < 0 || box.x + box.width > width || box.y + box.height > height) problems.push(`the sheet is off the screen: ${JSON.stringify(box)}`);
  await page.keyboard.press('Escape');
  await open.waitFor({ state: 'detached' });
  return problems.map((p) => `${sheet}: ${p}`);
}

/** axe is slow: it reads one size of each kind (sideways, upright, desktop) in each state and language. */
const AXE_AT = new Set(['640x360', '390x844', '1280x800']);
/** The README's screenshots (busy): sideways and upright in English, sideways in Chinese. */
const README = { en: ['844x390', '390x844'], zh: ['844x390'] };

for (const lang of ['en', 'zh']) {
  describe(`the hall at every size (${lang})`, { concurrency: 3 }, () => {
    for (const size of SIZES) {
      const name = `${size.width}x${size.height}`;
      test(`${name} (${lang})`, { timeout: 120_000 }, async () => {
        const problems = [];
        const { page, show } = await hallPage(size, lang);
        for (const state of ['fresh', 'busy']) {
          await show(state);
          const found = [
            ...(await layoutProblems(page)),
            ...(await scrollProblems(page)),
            ...(AXE_AT.has(name) ? await axeViolations(page, { serious: true }) : []),
          ];
          if (state === 'busy') {
            found.push(...(await sheetProblems(page, 'player-card', 'player-dialog')));
            if (size.height <= 500 && size.width > size.height) found.push(...(await sheetProblems(page, 'public-tables', 'tables-sheet')));
          }
          problems.push(...found.map((p) => `${state}: ${p}`));
          await page.screenshot({ path: join(OUT, `${lang}-${state}-${name}.jpg`), type: 'jpeg', quality: 72, fullPage: true });
          if (README_SHOTS && state === 'busy' && README[lang].includes(name))
            await page.screenshot({ path: join(README_SHOTS, `hall-${name}${lang === 'en' ? '' : `-${lang}`}.png`) });
        }
        await page.context().close();
        assert.deepEqual(problems, [], `both states at ${name} (${lang})`);
      });
    }
  });
}
