// The tournaments, an event's page, a player's page and the boards at every size players hold them (issue 58),
// in English and Chinese, as the hall and the table are measured: phones on their side (640x360 to 932x430)
// first, upright, a laptop and a desktop. One page per size and language, going from screen to screen in the
// app (no reload but between the two states):
// - fresh: the real server as a first visit finds it under a new name: its built-in events, a built-in
//   sit-and-go's page (Register), the player's own page with nothing played, the empty boards;
// - busy: played in through stubs (`page.route`, `page.routeWebSocket`) from `fixtures/pages-*.json`, shaped as
//   `wire.ts`: many events with long titles, an event of 999 entrants before its start and mid chip rounds with
//   the reader at place 537 (pinned under the standings) and seated, a long protected name with ratings in all
//   three families, every challenge and twenty tournaments played and a history of 200 deals (paged by the
//   stubbed endpoint as the server does; two pages shown), boards of 100 rows with the reader at rank 537, and
//   a board where the reader is not listed yet (what listing needs, from their standing), and the form that
//   creates an event, opened in its sheet.
// Each screen must pass `layoutProblems` (nothing overlaps, nothing is cut or off the screen's sides, every tap
// target at least 44px and uncovered, no scroll sideways), and axe must find nothing serious (axe at 640x360,
// 390x844 and 1280x800). Screenshots of each first screen go to target/e2e-screenshots/pages/.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/pages-layout.mjs

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SIZES, axeViolations, layoutProblems } from './layout.mjs';
import { BASE, api, newPage, useBrowser } from './harness.mjs';

useBrowser();

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, '../../target/e2e-screenshots/pages');
mkdirSync(OUT, { recursive: true });

const fixture = (name) => JSON.parse(readFileSync(join(here, `fixtures/${name}.json`), 'utf8'));
const LISTS = fixture('pages-tournaments');
const EVENT = { registering: fixture('pages-event-registering'), running: fixture('pages-event-running') };
const PLAYER = fixture('pages-player');
const DEALS = fixture('pages-deals');
const BOARD = fixture('pages-board');
const RATINGS = fixture('pages-ratings');
/** The hall the Tournaments page keeps live from: the busy lists' open and running events. */
const HALL = { ...fixture('hall-busy'), now: EVENT.running.now, tournaments: LISTS.upcoming, running: LISTS.running.slice(0, 12) };
const EVENT_ID = EVENT.running.page.summary.id;
/** The reader before their row is listed: 12 of the 20 rated deals listing needs. */
const UNLISTED = { ...PLAYER, standing: { ...PLAYER.standing, rated_deals: 12, listed: false, ranks: [] } };

/** The deals endpoint as the server pages it: newest first, `limit` a page, `next` the following page's cursor. */
function dealsPage(url) {
  const query = new URL(url).searchParams;
  const from = Number(query.get('before') ?? 0);
  const limit = Number(query.get('limit') ?? 20);
  const deals = DEALS.slice(from, from + limit);
  return from + limit < DEALS.length ? { deals, next: String(from + limit) } : { deals };
}

/**
 * A page at `size` in `lang` whose tournament, player and board requests (and sockets) this test answers while
 * the state is busy, and the server answers while it is fresh. `event` is the busy event's phase shown.
 */
async function pagesPage(size, lang) {
  const page = await newPage(size);
  const state = { busy: false, event: 'running', unlisted: false };
  await page.addInitScript((lang) => localStorage.setItem('ddz.lang', lang), lang);
  const stub = (pattern, answer) =>
    page.route(pattern, (route) => (state.busy ? route.fulfill({ json: answer(route.request().url()) }) : route.continue()));
  await stub(/\/api\/tournaments$/, () => LISTS);
  await stub(/\/api\/tournaments\/[^/]+\/page(\?.*)?$/, () => EVENT[state.event]);
  await stub(/\/api\/hall$/, () => HALL);
  await stub(/\/api\/players\/[^/?]+(\?.*)?$/, () => (state.unlisted ? UNLISTED : PLAYER));
  await stub(/\/api\/players\/[^/]+\/deals\?.*$/, dealsPage);
  await stub(/\/api\/boards\/\w+(\?.*)?$/, (url) => {
    const board = new URL(url).pathname.split('/').at(-1);
    // Not listed yet: the row says what listing still takes (12 of 20 rated deals played).
    const unlisted = { ...BOARD.you, rank: undefined, listed: false, needs_deals: 8, needs_opponents: 3 };
    return { ...BOARD, board, you: state.unlisted ? unlisted : BOARD.you };
  });
  await stub(/\/api\/ratings\/\w+(\?.*)?$/, (url) => ({ ...RATINGS, table: new URL(url).pathname.split('/').at(-1) }));
  await stub(/\/api\/rallies$/, () => ({ today: '2026-12-06', dates: ['2026-12-06'] }));
  await page.routeWebSocket(/\/ws/, (ws) => {
    if (!state.busy) return ws.connectToServer();
    ws.onMessage((text) => {
      const command = JSON.parse(text);
      if (command.type === 'watch_hall') ws.send(JSON.stringify({ type: 'hall', hall: HALL }));
      if (command.type === 'follow_tournament') ws.send(JSON.stringify({ type: 'tournament', ...EVENT[state.event] }));
      if (command.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
  });
  return { page, state };
}

/** Nothing on the page still waits for its answer (the pages write `…` until then); the faces drawn. */
async function settled(page) {
  await page.waitForFunction(() => ![...document.querySelectorAll('main p.muted')].some((p) => p.textContent.trim() === '…'));
  await page.waitForTimeout(80);
}

/** Goes to a hash route in the app itself, as a tab or a link does, and waits for `ready`. */
async function open(page, hash, ready) {
  await page.evaluate((hash) => (location.hash = hash), hash);
  await ready.waitFor();
  await settled(page);
}

/** The screens of each state (`state.busy`): each goes there and waits for what makes it that screen. */
function screens(state, page, name, lang) {
  const id = (testid) => page.getByTestId(testid);
  if (!state.busy) {
    return [
      ['tournaments', () => open(page, '#/tournaments', id('tournaments-upcoming').locator('.tile').first())],
      ['event', async () => {
        const lists = await api('/api/tournaments');
        const builtIn = lists.upcoming.find((e) => e.id.startsWith('house-sit-and-go-'));
        assert.ok(builtIn, `a built-in House sit-and-go is open: ${lists.upcoming.map((e) => e.id)}`);
        await open(page, `#/tournaments/${builtIn.id}`, id('register'));
      }],
      ['me', () => open(page, `#/stats/${encodeURIComponent(name)}`, id('deal-history').getByText(/No deals played yet|还没有/))],
      ['boards', () => open(page, '#/boards/overall', page.getByRole('tabpanel'))],
    ];
  }
  return [
    ['tournaments', () => open(page, '#/tournaments', id(`tournament-${LISTS.finished[0].id}`))],
    ['event-registering', async () => {
      state.event = 'registering';
      await open(page, `#/tournaments/${EVENT_ID}`, id('standings-you'));
      await id('registered').waitFor();
    }],
    ['event-running', async () => {
      state.event = 'running';
      // Another route first: the page follows the event again, now mid chip rounds. The reader is seated: taken to
      // the table once per table, as a player is; the test's table was marked as entered already.
      await open(page, '#/tournaments', id('tournaments-upcoming'));
      await open(page, `#/tournaments/${EVENT_ID}`, id('go-to-table'));
      await id('round-tables').waitFor();
    }],
    ['me', async () => {
      await open(page, `#/stats/${encodeURIComponent(name)}`, id('rating-chart-two_player'));
      await id('deal-history').locator('li').nth(19).waitFor();
      await id('more-deals').click();
      await id('deal-history').locator('li').nth(39).waitFor();
    }],
    ['boards', () => open(page, '#/boards/overall', id('board-you'))],
    ['boards-unlisted', async () => {
      state.unlisted = true;
      await page.getByRole('tab', { name: lang === 'en' ? 'Public lobby' : '公开大厅', exact: true }).click();
      await id('board-you-place').filter({ hasText: lang === 'en' ? 'needs 8 more rated deals' : '还需 8 局' }).waitFor();
      await settled(page);
      state.unlisted = false;
    }],
    ['ratings', async () => {
      await page.getByRole('tab', { name: lang === 'en' ? 'Ratings' : '等级分', exact: true }).click();
      await id('rating-board').getByTestId('board-you').waitFor();
      await settled(page);
    }],
    // The form that creates an event, in its sheet over the busy lists (only the sheet's own parts measured).
    ['create', async () => {
      await open(page, '#/tournaments', id(`tournament-${LISTS.finished[0].id}`));
      await id('open-create').click();
      await id('create-tournament').waitFor();
    }],
  ];
}

/** axe is slow: it reads one size of each kind (sideways, upright, desktop). */
const AXE_AT = new Set(['640x360', '390x844', '1280x800']);

for (const lang of ['en', 'zh']) {
  describe(`the tournaments, event, player and boards pages at every size (${lang})`, { concurrency: 3 }, () => {
    for (const size of SIZES) {
      const at = `${size.width}x${size.height}`;
      test(`${at} (${lang})`, { timeout: 180_000 }, async () => {
        const problems = [];
        const { page, state } = await pagesPage(size, lang);
        for (const which of ['fresh', 'busy']) {
          state.busy = which === 'busy';
          const name = state.busy ? PLAYER.name : `Visitor ${size.width}${size.height}${lang}`;
          await page.goto(BASE);
          await page.evaluate(({ name, table }) => {
            localStorage.setItem('ddz.name', name);
            // The busy reader's table, as if the page had taken them there already: the event's page stays.
            sessionStorage.setItem('ddz.tournamentTable', table);
          }, { name, table: EVENT.running.you.table.code });
          await page.reload();
          for (const [screen, show] of screens(state, page, name, lang)) {
            await show();
            const found = [...(await layoutProblems(page)), ...(AXE_AT.has(at) ? await axeViolations(page) : [])];
            const sheet = await page.evaluate(() => document.querySelector('.sheet[open]')?.getBoundingClientRect().toJSON());
            if (sheet && (sheet.left < 0 || sheet.top < 0 || sheet.right > size.width || sheet.bottom > size.height))
              found.push(`the sheet is off the screen: ${JSON.stringify(sheet)}`);
            problems.push(...found.map((p) => `${which} ${screen}: ${p}`));
            await page.screenshot({ path: join(OUT, `${lang}-${which}-${screen}-${at}.jpg`), type: 'jpeg', quality: 70 });
          }
        }
        await page.context().close();
        assert.deepEqual(problems, [], `every screen at ${at} (${lang})`);
      });
    }
  });
}
