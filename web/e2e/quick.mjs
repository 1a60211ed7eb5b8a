// Browser tests of quick match: a table type's tile in the hall, the waiting page (its countdown, a reload that
// resumes the same ticket, a ticket gone that is joined again by itself, Cancel), a player alone seated with
// two bots after the server's 10 s wait (the table says so), and three players of No Shuffle seated together.
// The three tests run at once, each on its own table type so that they never match one another.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/quick.mjs (quicker with `ddz serve --bot-delay-ms 100
// --bot-delay-span-ms 100`).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations } from './layout.mjs';
import { BASE, PORTRAIT, answerName, asPlayer, assertLayout, newPage, publicView, shot, sleep, tap, uniqueName, useBrowser } from './harness.mjs';

useBrowser();

/** Opens the hall as `name` and taps the quick-match tile of a table type (`house`, `no_shuffle`, `two_player`). */
async function playNow(page, name, table) {
  await asPlayer(page, name);
  await tap(page, page.getByTestId(`quick-${table}`));
  await page.waitForURL(/#\/quick$/);
}

/** The ticket the page waits on (sessionStorage). */
const ticketOf = (page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('ddz.quick') ?? 'null')?.ticket ?? null);

/** The seconds in a text such as "Bots fill the empty seats in 8 s". */
const seconds = (text) => Number(text.match(/(\d+) s/)?.[1]);

const ticketStatus = async (ticket) => (await fetch(`${BASE}/api/quick-match/${ticket}`)).status;

describe('quick match', { concurrency: 3 }, () => {
  test('a player alone waits, counting down, then sits with two bots and is told so', { timeout: 60_000 }, async () => {
    const page = await newPage(PORTRAIT);
    const name = uniqueName('Solo');
    await page.goto(BASE);
    // Nothing chosen yet: no tile is marked as the last chosen. A tile needs a name: the first tap asks for it,
    // then joins.
    assert.equal(await page.getByRole('button', { name: /last chosen/ }).count(), 0);
    await tap(page, page.getByTestId('quick-house'));
    await answerName(page, name);
    await page.waitForURL(/#\/quick$/);

    const status = page.getByRole('status').filter({ hasText: 'Looking for players…' });
    await status.waitFor();
    // The count comes with the ticket's first answer, a moment after the page shows.
    await status.filter({ hasText: /Waiting for this table: 1/ }).waitFor({ timeout: 5_000 });
    const fill = page.getByTestId('quick-fill');
    await fill.waitFor();
    const first = seconds(await fill.innerText());
    assert.ok(first >= 1 && first <= 10, `a countdown from 10 s: ${await fill.innerText()}`);
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await assertLayout(page, 'the waiting page');
    assert.deepEqual(await axeViolations(page), [], 'axe-core on the waiting page');
    await shot(page, 'quick-waiting');
    await sleep(1500);
    assert.ok(seconds(await fill.innerText()) < first, 'the countdown counts down');
    assert.match(await page.getByTestId('quick-waited').innerText(), /^Waited \d+ s$/);

    // After 10 s the bots fill the two empty seats and the deal is dealt.
    await page.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 25_000 });
    assert.match(page.url(), /\?room=[A-Z0-9]+$/);
    const notice = page.getByTestId('bots-notice');
    assert.equal(await notice.getByText('Nobody else came in time: 2 bots took the empty seats.').count(), 1);
    const view = await publicView(page);
    assert.equal(view.mode, 'quick');
    assert.deepEqual(view.seats.map((s) => s.occupant?.type), ['human', 'bot', 'bot']);
    assert.equal(view.seats[0].occupant.name, name);
    // Quick tables keep their rules: no switch for the host.
    assert.equal(await page.getByTestId('rules-chip').count(), 0);
    assert.equal(await ticketOf(page), null, 'the ticket is forgotten once seated');
    await assertLayout(page, 'the table with the bots notice');
    await shot(page, 'quick-bots');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.context().close();
  });

  test('three players choosing No Shuffle sit at one table, without bots', { timeout: 60_000 }, async () => {
    const names = [uniqueName('Trio'), uniqueName('Trio'), uniqueName('Trio')];
    const pages = await Promise.all(names.map(() => newPage()));
    await Promise.all(pages.map((page, i) => playNow(page, names[i], 'no_shuffle')));
    // The choice is remembered for the next visit.
    assert.equal(await pages[0].evaluate(() => localStorage.getItem('ddz.quickTable')), 'no_shuffle');
    await Promise.all(pages.map((page) => page.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 20_000 })));
    const codes = pages.map((page) => new URL(page.url()).searchParams.get('room'));
    assert.equal(new Set(codes).size, 1, `one table: ${codes}`);
    for (const page of pages) {
      const seated = (await page.locator('.seat .name').allInnerTexts()).join(' | ');
      for (const name of names) assert.ok(seated.includes(name), `${name} among the seats: ${seated}`);
      assert.equal(await page.getByTestId('bots-notice').count(), 0, 'no bots, no notice');
    }
    const view = await publicView(pages[0]);
    assert.deepEqual(view.seats.map((s) => s.occupant?.type), ['human', 'human', 'human']);
    assert.equal(view.rules.table, 'no_shuffle');
    await shot(pages[0], 'quick-trio');
    // The hall marks the table type chosen last.
    await pages[0].goto(BASE);
    await pages[0].getByTestId('quick-no_shuffle').and(pages[0].getByRole('button', { name: /last chosen/ })).waitFor();
    assert.equal(await pages[0].getByRole('button', { name: /last chosen/ }).count(), 1);
    for (const page of pages) await page.context().close();
  });

  test('a reload resumes the ticket, a lost ticket is joined again, Cancel leaves the queue', { timeout: 60_000 }, async () => {
    const page = await newPage();
    await playNow(page, uniqueName('Quitter'), 'two_player');
    await page.getByTestId('quick-fill').waitFor();
    const ticket = await ticketOf(page);
    assert.ok(ticket, 'the ticket is kept in sessionStorage');

    // A reload polls the same ticket: the seconds waited go on.
    await sleep(1200);
    await page.reload();
    await page.getByTestId('quick-waited').filter({ hasText: /Waited [1-9]\d* s/ }).waitFor();
    assert.equal(await ticketOf(page), ticket);

    // The ticket gone from the queue (left from elsewhere): the page joins again by itself, with a new one.
    const left = await fetch(`${BASE}/api/quick-match/${ticket}`, { method: 'DELETE' });
    assert.equal(left.status, 204);
    await page.waitForFunction((old) => {
      const now = JSON.parse(sessionStorage.getItem('ddz.quick') ?? 'null')?.ticket;
      return now && now !== old;
    }, ticket);
    const again = await ticketOf(page);
    await page.getByRole('status').filter({ hasText: 'Looking for players…' }).waitFor();
    assert.equal(await ticketStatus(again), 200);

    // Cancel: Home, and the ticket is no longer in the queue.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('quick-two_player').waitFor();
    assert.equal(new URL(page.url()).hash, '');
    assert.equal(await ticketOf(page), null);
    assert.equal(await ticketStatus(again), 404);
    assert.match(await page.getByTestId('quick-two_player').innerText(), /last chosen/, 'the choice is remembered');
    await page.context().close();
  });
});
