// Puzzles (issue 60, docs/puzzles.md) on a phone held sideways: the daily puzzle opened from the hall and solved
// move by move (the hint, then the play; the solver in the page answers), the attempt rated by the server, and the
// bots' game it came from replayed from its position, and the attempt on the player's page; a wrong
// first move shows the other side's winning line and the solution; and with the server out of reach, a puzzle
// kept in the app plays all the same, unrated (and reads in Chinese).
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/puzzles.mjs

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE, PHONE, api, asPlayer, assertLayout, chooseLanguage, newPage, tap, uniqueName, useBrowser } from './harness.mjs';

useBrowser();

/** Plays the player's side to the end by the page's own hints: the winning move each turn. */
async function solveByHints(page) {
  const outcome = page.getByTestId('puzzle-outcome');
  for (let turn = 0; turn < 40 && !(await outcome.isVisible()); turn++) {
    await tap(page, page.getByTestId('puzzle-hint'));
    const pass = page.getByTestId('puzzle-pass');
    if (await pass.evaluate((b) => b.classList.contains('hinted'))) await tap(page, pass);
    else await tap(page, page.getByTestId('puzzle-play'));
  }
  await outcome.waitFor();
}

/** A losing first move on a lead: a single card the hint does not use (a single always leads, and the one winning
 * move is another). */
async function playWrong(page) {
  await tap(page, page.getByTestId('puzzle-hint'));
  const cards = page.locator('[data-testid^=puzzle-seat-].moving .card');
  const hinted = [];
  for (let i = 0; i < (await cards.count()); i++) {
    if ((await cards.nth(i).getAttribute('aria-pressed')) === 'true') hinted.push(i);
  }
  assert.ok(hinted.length > 0, 'on a lead the hint is a play');
  for (const i of hinted) await tap(page, cards.nth(i));
  for (let i = 0; i < (await cards.count()); i++) {
    if (hinted.includes(i)) continue;
    await tap(page, cards.nth(i));
    if (await page.getByTestId('puzzle-play').isEnabled()) break;
    await tap(page, cards.nth(i));
  }
  await tap(page, page.getByTestId('puzzle-play'));
}

describe('puzzles', { concurrency: 2 }, () => {
  test('the daily puzzle opens from the hall, is solved move by move and is rated', { timeout: 60_000 }, async () => {
    const page = await newPage(PHONE);
    const name = uniqueName('Solver');
    await asPlayer(page, name);
    const daily = await api('/api/puzzles/daily');
    const tile = page.getByTestId('daily-puzzle');
    await tile.filter({ hasText: String(daily.rating) }).waitFor();
    await tap(page, tile);
    await page.waitForURL(/#\/puzzles$/);
    await page.getByTestId('puzzle-goal').waitFor();
    assert.match(await page.getByTestId('puzzle').innerText(), /Daily puzzle/);
    await assertLayout(page, 'a puzzle, sideways');
    await solveByHints(page);
    assert.equal(await page.getByTestId('puzzle-outcome').innerText(), 'Solved!');
    const change = page.getByTestId('puzzle-rating-change');
    await change.waitFor();
    assert.match(await change.innerText(), /Your puzzle rating: 1500 → 1[5-9]\d\d/);
    const board = await api(`/api/puzzles/board?name=${encodeURIComponent(name)}`);
    assert.equal(board.you.attempts, 1, 'the server rated the attempt');
    await assertLayout(page, 'a solved puzzle');
    // The game it came from: the bots' deal played again, opened at the puzzle's position, and back.
    const deal = await api(`/api/puzzles/${daily.id}/deal`);
    await tap(page, page.getByTestId('puzzle-source'));
    await page.waitForURL(new RegExp(`#/puzzles/${daily.id}/deal$`));
    await page.locator(`main.replay[data-step="${deal.step}"]`).waitFor();
    assert.match(await page.getByRole('heading', { level: 1 }).innerText(), new RegExp(`Puzzle ${daily.id}: the game it came from`));
    await assertLayout(page, "a puzzle's game");
    await tap(page, page.getByTestId('puzzle-deal-note').getByRole('link'));
    await page.waitForURL(new RegExp(`#/puzzles/${daily.id}$`));
    await page.getByTestId('puzzle-goal').waitFor();
    // The puzzle board says the reader's own rating (listed among the best after five attempts).
    await page.goto(`${BASE}/#/boards/puzzles`);
    await page.getByTestId('puzzle-board-you').filter({ hasText: /Your puzzle rating: 1[5-9]\d\d \(1 attempt\)/ }).waitFor();
    // Their own page: the rating, and the attempt opening its puzzle.
    await page.goto(`${BASE}/@/${encodeURIComponent(name)}`);
    const record = page.getByTestId('puzzle-record');
    await record.filter({ hasText: /Puzzle rating 1[5-9]\d\d: 1 of 1 solved/ }).waitFor();
    await record.getByTestId('record-daily-puzzle').waitFor();
    await assertLayout(page, "the player's puzzles");
    await tap(page, record.getByTestId(`tried-${daily.id}`));
    await page.waitForURL(new RegExp(`#/puzzles/${daily.id}$`));
    await page.getByTestId('puzzle-goal').waitFor();
    await page.context().close();
  });

  test('a wrong first move shows the refutation and the solution', { timeout: 60_000 }, async () => {
    const page = await newPage(PHONE);
    const name = uniqueName('Wrong');
    await asPlayer(page, name);
    // A puzzle that starts on a lead (any of the nearest few).
    let next = await api(`/api/puzzles/next?name=${encodeURIComponent(name)}`);
    for (let tries = 0; next.endgame.trick && tries < 40; tries++) next = await api(`/api/puzzles/next?name=${encodeURIComponent(name)}`);
    assert.ok(!next.endgame.trick, 'a puzzle that starts on a lead');
    await page.goto(`${BASE}/#/puzzles/${next.id}`);
    await page.getByTestId('puzzle-goal').waitFor();
    await playWrong(page);
    await page.getByTestId('puzzle-outcome').filter({ hasText: 'That gives the win away.' }).waitFor();
    assert.ok((await page.getByTestId('puzzle-refutation').locator('li').count()) > 0, 'the refutation is shown');
    assert.ok((await page.getByTestId('puzzle-solution').locator('li').count()) > 0, 'the solution is shown');
    await page.getByTestId('puzzle-rating-change').waitFor();
    assert.match(await page.getByTestId('puzzle-rating-change').innerText(), /1500 → 1[0-4]\d\d/);
    await assertLayout(page, 'a failed puzzle with its refutation');
    // Tried again, it is practice: solved, and not rated again.
    await tap(page, page.getByTestId('puzzle-retry'));
    await solveByHints(page);
    assert.equal(await page.getByTestId('puzzle-outcome').innerText(), 'Solved!');
    assert.equal(await page.getByTestId('puzzle-rating-change').count(), 0);
    await page.context().close();
  });

  test('without the server, a puzzle kept in the app plays unrated', { timeout: 60_000 }, async () => {
    const page = await newPage(PHONE);
    await page.goto(BASE);
    await page.getByTestId('hall').waitFor();
    await page.route(/\/api\/puzzles/, (route) => route.abort('internetdisconnected'));
    await page.goto(`${BASE}/#/puzzles`);
    await page.getByTestId('puzzle-goal').waitFor();
    assert.match(await page.getByTestId('puzzle').innerText(), /Puzzle [0-9a-f]{10}/);
    await solveByHints(page);
    assert.equal(await page.getByTestId('puzzle-outcome').innerText(), 'Solved!');
    assert.match(await page.getByTestId('puzzle').innerText(), /Offline: a puzzle kept in this app, not rated\./);
    await tap(page, page.getByTestId('puzzle-next'));
    await page.getByTestId('puzzle-hint').and(page.locator(':enabled')).waitFor();
    // In Chinese too, sideways, nothing cut or overlapping.
    await chooseLanguage(page, '中文');
    await page.getByTestId('puzzle-hint').filter({ hasText: '提示' }).waitFor();
    await assertLayout(page, 'a puzzle, sideways, in Chinese');
    await page.context().close();
  });
});
