// Browser test of a tournament (docs/tournaments.md): a player opens Tournaments from Home, opens the form and
// creates a 9-player House sit-and-go that bots fill after the shortest wait (10 s), with one-deal rounds chosen
// in the form's settings, is registered by it (Withdraw and Register again), is taken to the table the server
// seats them at, plays their turns there, follows the tournament to its end (a final table if they reach it)
// and sees the standings of 9, the event's path and rounds, their own place as the server has it, the podium,
// and the record to check the draw with; the pages on phones upright and sideways and in Chinese.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/tournament.mjs (with `ddz serve --tournament-pause-ms 500
// --tournament-away-ms 15000 --bot-delay-ms 100 --bot-delay-span-ms 100`).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations } from './layout.mjs';
import { BASE, api, asPlayer, PORTRAIT, assertLayout, hintAndPlay, newPage, press, probe, shot, sleep, uniqueName, useBrowser } from './harness.mjs';

useBrowser();

/** The screens the tournament pages must fit besides PORTRAIT: a small phone, and phones held sideways. */
const OTHER_SCREENS = [
  { width: 360, height: 640 },
  { width: 640, height: 360 },
  { width: 800, height: 360 },
];

const atTable = (page) => /\?room=[A-Z0-9]+/.test(page.url());

/** Plays the player's turns at their table until its deal is over (its result, or the table closed). */
async function playAtTable(page) {
  const end = Date.now() + 90_000;
  for (;;) {
    assert.ok(Date.now() < end, 'the deal at the tournament table ends in time');
    if ((await page.getByTestId('settlement').count()) > 0) return;
    const { over, buttons } = await probe(page);
    if (over) return;
    if (buttons.includes('Seen')) await press(page, 'Seen');
    else if (buttons.includes('Hint')) await hintAndPlay(page);
    else if (buttons.length > 0)
      await press(
        page,
        buttons.find((b) => b === 'Take the middle cards' || b.startsWith('Bid ') || b === 'Call landlord') ??
          buttons.find((b) => b === "Don't rob") ??
          buttons[0],
      );
    else await sleep(100);
  }
}

/** The tournament page's phase, without waiting for it (the page may take the player to a table meanwhile). */
const phase = (page) => page.evaluate(() => document.querySelector('[data-testid=tournament-phase]')?.textContent ?? null);

/** The screen fits at each size (the page scrolls; nothing overlaps or runs off it), with a screenshot. */
async function checkScreens(page, what) {
  for (const size of OTHER_SCREENS) {
    await page.setViewportSize(size);
    await sleep(200);
    await assertLayout(page, what);
    await shot(page, `tournament-${what}-${size.width}x${size.height}`);
  }
  await page.setViewportSize(PORTRAIT);
}

describe('tournaments', () => {
  test('a sit-and-go filled by bots, played from the table to its podium', { timeout: 240_000 }, async () => {
    const page = await newPage(PORTRAIT);
    const name = uniqueName('Entrant');
    await asPlayer(page, name);
    await page.getByRole('link', { name: 'Tournaments' }).click();
    await page.getByRole('heading', { name: 'Tournaments', level: 1 }).waitFor();
    assert.match(page.url(), /#\/tournaments$/);
    await page.getByTestId('tournaments-upcoming').getByText(/None right now|registered/).first().waitFor();
    assert.deepEqual(await axeViolations(page), [], 'axe-core on the tournaments page');

    // The form, opened from its button: House, a sit-and-go of 9, bots after 10 s, one deal a round.
    await page.getByTestId('open-create').click();
    const form = page.getByTestId('create-tournament');
    assert.equal(await form.getByLabel('Your name').inputValue(), name, 'the name chosen at Home');
    await form.getByTestId('tournament-table').selectOption('house');
    await form.getByTestId('tournament-format').selectOption('sit_and_go');
    await form.getByTestId('tournament-size').selectOption('9');
    await form.getByLabel('Fill with bots after').check();
    await form.getByTestId('tournament-wait').selectOption('10');
    await form.getByText('Settings').click();
    await form.getByTestId('chip-rounds').fill('1');
    await form.getByTestId('line-every').fill('1');
    await form.getByTestId('chip-rounds-until').fill('3');
    await form.getByTestId('deals-per-round').fill('1');
    await form.getByTestId('final-deals').fill('1');
    await assertLayout(page, 'the create form');
    await shot(page, 'tournament-create');
    await form.getByRole('button', { name: 'Create tournament' }).click();

    // Its page: the host is registered, and the bots' countdown runs.
    await page.waitForURL(/#\/tournaments\/[a-z0-9-]+$/);
    const id = page.url().split('/').at(-1);
    await page.getByTestId('registered').filter({ hasText: name }).waitFor();
    await page.getByTestId('tournament-countdown').filter({ hasText: /bots fill it in 0:\d\d/ }).waitFor();
    assert.match(await page.getByTestId('tournament-about').innerText(), /House · Sit-and-go of 9 · Host: Entrant\d+/);
    assert.match(await page.getByTestId('commitment').innerText(), /^[0-9a-f]{64}$/);
    await page.getByTestId('withdraw').click();
    await page.getByTestId('register').click();
    await page.getByTestId('registered').waitFor();
    await assertLayout(page, 'the tournament before its start');
    assert.deepEqual(await axeViolations(page), [], 'axe-core on the tournament page');
    await shot(page, 'tournament-registered');
    await checkScreens(page, 'registered');

    // The bots fill it after 10 s; the page takes the player to their table.
    await page.waitForURL(/\?room=[A-Z0-9]+$/, { timeout: 30_000 });
    await page.getByTestId('tournament-chip').waitFor();
    // The table the server seats the player at.
    const seatedAt = (await api(`/api/tournaments/${id}/page?name=${encodeURIComponent(name)}`)).you?.table?.code;
    assert.equal(new URL(page.url()).searchParams.get('room'), seatedAt, 'taken to the table the server seats them at');
    assert.equal(await page.getByTestId('rules-chip').count(), 0, 'no Wild switch at a tournament table');
    assert.equal(await page.getByRole('button', { name: 'Close room' }).count(), 0);
    const tables = [];
    let running = false;
    // Table after table until the tournament is over: each deal played here, then back to its page.
    const end = Date.now() + 150_000;
    for (;;) {
      assert.ok(Date.now() < end, 'the tournament ends in time');
      if (atTable(page)) {
        tables.push(new URL(page.url()).searchParams.get('room'));
        await page.locator('[data-testid=hand] .card').first().waitFor({ timeout: 30_000 });
        if (tables.length === 1) {
          await assertLayout(page, 'a tournament table');
          await shot(page, 'tournament-table');
          // Sideways too: the Tournament chip keeps the top bar to one row.
          await page.setViewportSize({ width: 640, height: 360 });
          await sleep(200);
          await assertLayout(page, 'a tournament table');
          await shot(page, 'tournament-table-640x360');
          await page.setViewportSize(PORTRAIT);
        }
        await playAtTable(page);
        await page.getByTestId('tournament-chip').click();
        // Its page, which may take the player on to their next table at once.
        const left = tables.at(-1);
        await page.waitForURL((url) => url.hash === `#/tournaments/${id}` || (!!url.searchParams.get('room') && url.searchParams.get('room') !== left));
      } else if ((await phase(page)) === 'Finished') {
        break;
      } else {
        if (!running && (await phase(page)) === 'Playing') {
          running = true;
          await assertLayout(page, 'the tournament while it runs');
          await shot(page, 'tournament-running');
        }
        await sleep(250);
      }
    }
    assert.ok(tables.length >= 1, 'played at a table');
    console.log(`tournament ${id}: played at ${tables.join(', ')}`);

    // Over: 9 in the standings, the podium of 3, the event's path (one chip round, the final played) and its
    // rounds (round 1's three tables and the final's one, every deal counted), the player's own place as the
    // server has it, the seed.
    const standings = page.getByTestId('standings').locator('tbody tr');
    assert.equal(await standings.count(), 9);
    assert.equal(await page.getByTestId('podium').locator('li').count(), 3);
    assert.match(await page.getByTestId('path-chips').innerText(), /Chip rounds\s+1 round\s+9 players/);
    assert.match(await page.getByTestId('path-final').innerText(), /Final table\s+Played\s+3 players/);
    assert.match(await page.getByTestId('round-1').innerText(), /Round 1 · chip round\s+line [\d,]+\s+3 tables · 9 players\s+deals 3\/3\s+over/);
    assert.match(await page.getByTestId('round-2').innerText(), /Round 2 · final table\s+1 table · 3 players\s+deals 1\/1\s+over/);
    const mine = (await api(`/api/tournaments/${id}`)).standings.find((e) => e.name === name);
    assert.equal(await page.getByTestId('your-place').innerText(), `You finished ${mine.place} of 9`);
    assert.equal(await standings.nth(mine.place - 1).locator('.entrant-name').innerText(), name);
    assert.ok(await standings.nth(mine.place - 1).evaluate((tr) => tr.classList.contains('mine')), 'their row lit');
    assert.match(await page.getByTestId('seed').innerText(), /\S{16,}/);
    // Its record to check the draw with: the log under the commitment the page showed from the start.
    assert.equal(await page.getByTestId('tournament-record').getAttribute('href'), `/api/tournaments/${id}/record`);
    const record = await api(`/api/tournaments/${id}/record`);
    assert.equal(record.commitment, await page.getByTestId('commitment').innerText());
    assert.ok(record.log.length > 9, 'every registration, the start, the rounds');
    assert.equal(await page.getByTestId('go-to-table').count(), 0);
    await assertLayout(page, 'the finished tournament');
    await shot(page, 'tournament-finished');
    await checkScreens(page, 'finished');

    // In Chinese.
    await page.evaluate(() => localStorage.setItem('ddz.lang', 'zh'));
    await page.reload();
    await page.getByTestId('tournament-phase').filter({ hasText: '已结束' }).waitFor();
    await page.getByRole('heading', { name: '领奖台' }).waitFor();
    await assertLayout(page, 'the finished tournament in Chinese');
    await shot(page, 'tournament-finished-zh');
    await page.setViewportSize({ width: 640, height: 360 });
    await shot(page, 'tournament-finished-zh-640x360');
    await page.setViewportSize(PORTRAIT);

    // The lists: finished, with its podium.
    await page.evaluate(() => localStorage.setItem('ddz.lang', 'en'));
    // Only the hash changes: reloaded, so that the page reads the language again.
    await page.goto(`${BASE}/#/tournaments`);
    await page.reload();
    const finished = page.getByTestId('tournaments-finished').getByTestId(`tournament-${id}`);
    await finished.getByRole('list', { name: 'Podium' }).waitFor();
    assert.equal(await finished.getByRole('listitem').count(), 3);
    await assertLayout(page, 'the lists');
    await shot(page, 'tournament-lists');
    await checkScreens(page, 'lists');
    await page.context().close();
  });
});
