// Pages that follow what happens without asking again (issue 58): (a) an event's page open while a sit-and-go
// fills through the API shows each registration, the start and the first round's tables as the server pushes
// them, then the deals counted at those tables, with no reload and no repeated GET of the tournament (the
// requests are counted); (b) a deal played against bots is the newest on the player's own page
// (Me), with its table, role, result and amount as the server has them, and a tap opens its replay in place.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/follow.mjs (with `ddz serve --tournament-pause-ms 500
// --tournament-away-ms 1000 --bot-delay-ms 100 --bot-delay-span-ms 100`: players who never connect are
// played by the bot a second after their table is set up).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE, PHONE, PORTRAIT, api, asPlayer, assertLayout, newPage, tap, uniqueName, useBrowser } from './harness.mjs';

useBrowser();

describe('following', () => {
  test("an event's page shows registrations, the start and the first round as they are pushed", { timeout: 120_000 }, async () => {
    const host = uniqueName('Host');
    const { id } = await api('/api/tournaments', {
      name: host,
      key: null,
      title: null,
      table: 'house',
      format: { kind: 'sit_and_go', size: 9 },
      settings: { table: 'house', chips: 10000, stake: 500, line_percent: 20, line_step_percent: 20, line_every: 1, chip_rounds: 1, chip_rounds_until: 3, carry_percent: 10, deals_per_round: 1, final_deals: 1 },
    });

    // A reader with a name who does not play: the page takes them nowhere, and offers every table's Watch link.
    const page = await newPage(PHONE);
    const reader = uniqueName('Reader');
    await page.addInitScript((name) => localStorage.setItem('ddz.name', name), reader);
    const asked = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/tournaments/${id}`)) asked.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${BASE}/#/tournaments/${id}`);
    const phase = page.getByTestId('tournament-phase');
    await phase.filter({ hasText: 'Registration open' }).waitFor();
    const entrants = page.getByTestId('standings').locator('tbody tr');
    await page.getByTestId('standings').getByText('Nobody has registered yet.').waitFor();
    await page.evaluate(() => (window.__samePage = true));

    // Nine register, one after the other: each shows up in turn.
    const names = Array.from({ length: 9 }, () => uniqueName('Entrant'));
    for (const [i, name] of names.entries()) {
      await api(`/api/tournaments/${id}/register`, { name, key: null });
      if (i < 8) {
        await page.locator('.state').getByText(`${i + 1} of 9 registered`).waitFor();
        assert.equal(await entrants.count(), i + 1);
        assert.equal(await entrants.nth(i).locator('.entrant-name').innerText(), name);
      }
    }

    // Full: it starts, and the first round's three tables appear with their players, each with a Watch link.
    await phase.filter({ hasText: 'Playing' }).waitFor();
    await page.getByTestId('round-now').filter({ hasText: 'Round 1 · chip round' }).waitFor();
    await page.getByTestId('path-chips').and(page.locator('[aria-current=step]')).waitFor();
    const tables = page.getByTestId('round-tables').locator('li');
    await tables.nth(2).waitFor();
    assert.equal(await tables.count(), 3);
    const seated = (await page.getByTestId('round-tables').locator('.players > span').allInnerTexts()).map((s) => s.replace(/\s+\S+$/, ''));
    assert.deepEqual([...seated].sort(), [...names].sort(), 'every entrant at a table');
    assert.equal(await page.getByTestId('round-tables').getByRole('link', { name: /^Watch/ }).count(), 3);
    assert.equal(await page.getByTestId('your-spot').count(), 0, 'a reader who is not entered has no place');
    await assertLayout(page, 'the event mid round 1');

    // The bot plays for the absent players: the deals counted at the tables come in as they finish.
    await page.getByTestId('round-tables').getByText('deals 1/1').first().waitFor({ timeout: 60_000 });

    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    // A new follower would ask again: so the page kept one, whose socket (reopened only if it was lost) had it all.
    assert.deepEqual(asked, [`GET /api/tournaments/${id}/page`], 'one GET for the first paint, then only what is pushed');
    assert.ok(sockets.length >= 1 && sockets.every((url) => new URL(url).pathname === '/ws'), `the follower's socket: ${sockets}`);
    await page.context().close();
  });

  test("a deal played is the newest on the player's own page, and opens its replay", { timeout: 180_000 }, async () => {
    const page = await newPage(PORTRAIT);
    // Unique across runs against one server too: the page's newest deal must be this one.
    const name = uniqueName(`Historian${Date.now() % 100_000}x`);
    await asPlayer(page, name);
    await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
    await page.locator('[data-testid=hand] .card').nth(16).waitFor();
    await page.getByTestId('auto-play').click();
    await page.getByTestId('result').waitFor({ timeout: 150_000 });
    const code = new URL(page.url()).searchParams.get('room');

    // Me, from the shell (the table has no shell: back to the hall first).
    await page.goto(BASE);
    await tap(page, page.getByTestId('nav-me'));
    await page.waitForURL(new RegExp(`/@/${name}$`));
    const history = page.getByTestId('deal-history');
    const newest = history.getByRole('link').first();
    await newest.waitFor();
    const { deals } = await api(`/api/players/${encodeURIComponent(name)}/deals?limit=5`);
    assert.equal(deals.length, 1, 'one deal played');
    const [deal] = deals;
    assert.equal(deal.code, code);
    assert.equal(await newest.getAttribute('href'), `/replay/${code}/1`);
    const text = await newest.innerText();
    const amount = deal.amount === 0 ? '$0' : `${deal.amount < 0 ? '−' : '+'}$${Math.abs(deal.amount)}`;
    const result = deal.won === undefined ? 'No result' : deal.won ? 'Won' : 'Lost';
    const role = deal.landlord ? 'Landlord' : 'Tenant';
    const lines = text.split('\n').map((line) => line.trim());
    assert.deepEqual(lines.slice(0, 3), ['House · vs bots', amount, `${role} · ${result}`], text);
    assert.match(lines.at(-1), /^with Bot \w+( \d)?, Bot \w+ \d$/, text);
    assert.equal(await history.getByTestId('more-deals').count(), 0, 'no more pages');
    await assertLayout(page, "the player's page with a deal");

    // The replay opens in place (the app goes on: no page load).
    await page.evaluate(() => (window.__samePage = true));
    await tap(page, newest);
    await page.waitForURL(`**/replay/${code}/1`);
    await page.locator('main.replay').waitFor();
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no page load');
    await page.getByTestId('replay-hand-0').locator('[data-card]').first().waitFor();
    await page.context().close();
  });
});
