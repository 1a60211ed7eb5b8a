// Browser tests of ratings (docs/ratings.md): the bots' fixed ratings on their seats, the player's rating on
// their seat once a deal against bots is over (moved from where a new player starts), the same rating with its
// chart on the stats page, and the player on the ratings board.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/ratings.mjs (quicker bots: `ddz serve --bot-delay-ms 100`).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, newPage, playDeal, shot, useBrowser } from './harness.mjs';

useBrowser();

/** The rating shown on a seat's name panel (`★1595`), or null when it shows none. */
async function seatRating(page, seat) {
  const badge = page.getByTestId(`rating-${seat}`);
  if ((await badge.count()) === 0) return null;
  const m = (await badge.innerText()).match(/^★(-?\d+)$/);
  assert.ok(m, `a rating on seat ${seat}`);
  return Number(m[1]);
}

test('a deal against bots moves the rating on the seat, the stats page and the board', { timeout: 240_000 }, async () => {
  const name = 'Rated Rita';
  const page = await newPage();
  await page.goto(BASE);
  await page.getByTestId('name').fill(name);
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 60_000 });
  // The hard bots' fixed House rating; none yet for a player with no rated deal.
  assert.equal(await seatRating(page, 1), 1595);
  assert.equal(await seatRating(page, 2), 1595);
  assert.equal(await seatRating(page, 0), null);

  await playDeal([page]);
  await page.getByTestId('rating-0').waitFor();
  const rating = await seatRating(page, 0);
  assert.notEqual(rating, 1500, 'the deal moved the rating from where a new player starts');
  await shot(page, 'rating-seat');

  // The stats page shows the same rating and its history as a chart.
  await page.goto(`${BASE}/#/stats/${encodeURIComponent(name)}`);
  const value = page.getByTestId('rating-value-house');
  await value.waitFor();
  assert.equal(Number(await value.innerText()), rating);
  const chart = page.getByTestId('rating-chart-house');
  assert.equal(await chart.locator('circle').count(), 1, 'one rated deal: one point');
  await shot(page, 'rating-stats');

  // The ratings board, on its tab.
  await page.goto(`${BASE}/#/boards/ratings`);
  const row = page.getByTestId('rating-board').locator('tr', { hasText: name });
  await row.waitFor();
  assert.match(await row.innerText(), new RegExp(`^1\\s+${name}\\s+${rating} ± \\d+\\s+1\\s+\\d{4}-`));
  await shot(page, 'rating-board');
  await page.context().close();
});
