// Browser tests of ratings (docs/ratings.md): the bots' fixed ratings on their seats, the player's rating on
// their seat once a deal against bots is over (moved from where a new player starts), the same rating with its
// chart on the stats page, and the player on the ratings board; Play vs Bots at each level of the ladder.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/ratings.mjs (quicker bots: `ddz serve --bot-delay-ms 100`).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, asPlayer, newPage, playDeal, shot, useBrowser } from './harness.mjs';
import { axeViolations } from './layout.mjs';

useBrowser();

/** The bots' House ratings as measured (`BOT_ANCHORS` in crates/ddz-server/src/domain/rating/mod.rs). */
const HOUSE_ANCHORS = { beginner: 1067, easy: 1211, normal: 1500, hard: 1673 };

/** The rating shown on a seat's name panel (`★1700`), or null when it shows none. */
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
  await asPlayer(page, name);
  await page.getByTestId('bot-level').selectOption('hard');
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 60_000 });
  // The hard bots' fixed House rating; none yet for a player with no rated deal.
  assert.equal(await seatRating(page, 1), HOUSE_ANCHORS.hard);
  assert.equal(await seatRating(page, 2), HOUSE_ANCHORS.hard);
  assert.equal(await seatRating(page, 0), null);

  await playDeal([page]);
  await page.getByTestId('rating-0').waitFor();
  const rating = await seatRating(page, 0);
  assert.notEqual(rating, 1500, 'the deal moved the rating from where a new player starts');
  // The result panel says by how much (docs/ratings.md, "What counts").
  const change = rating - 1500;
  assert.equal(await page.getByTestId('verdict').innerText(), `Rating ${change > 0 ? '+' : '−'}${Math.abs(change)}`);
  await shot(page, 'rating-seat');

  // The stats page shows the same rating and its history as a chart.
  await page.goto(`${BASE}/#/stats/${encodeURIComponent(name)}`);
  const value = page.getByTestId('rating-value-house');
  await value.waitFor();
  assert.equal(Number(await value.innerText()), rating);
  const chart = page.getByTestId('rating-chart-house');
  assert.equal(await chart.locator('circle').count(), 1, 'one rated deal: one point');
  await shot(page, 'rating-stats');
  assert.deepEqual(await axeViolations(page), [], 'axe on the stats page');

  // The player's card in the hall shows it too.
  await page.goto(BASE);
  await page.getByTestId('card-rating-house').filter({ hasText: `★${rating}` }).waitFor();

  // The ratings board, on its tab.
  await page.goto(`${BASE}/#/boards/ratings`);
  const row = page.getByTestId('rating-board').locator('tr', { hasText: name });
  await row.waitFor();
  assert.match(await row.innerText(), new RegExp(`^1\\s+${name}\\s+${rating} ± \\d+\\s+1\\s+\\d{4}-`));
  await shot(page, 'rating-board');
  assert.deepEqual(await axeViolations(page), [], 'axe on the ratings board');
  await page.context().close();
});

test('Play vs Bots seats the chosen level of the ladder, with its measured rating; the choice is remembered', { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(BASE);
  const level = page.getByTestId('bot-level');
  assert.equal(await level.inputValue(), 'normal', 'a new player meets Normal first');
  assert.deepEqual(await level.locator('option').allInnerTexts(), ['Beginner', 'Easy', 'Normal', 'Hard'], 'weakest first');
  for (const [value, about] of [['beginner', /^Beginner: /], ['hard', /^Hard: /], ['easy', /^Easy: /]]) {
    await level.selectOption(value);
    assert.match(await page.getByTestId('bot-level-about').innerText(), about);
  }
  await level.selectOption('beginner');
  await asPlayer(page, 'Ladder Lee');
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 60_000 });
  assert.deepEqual((await page.locator('.seat .name').allInnerTexts()).filter((n) => n.startsWith('Bot')), ['Bot Beginner', 'Bot Beginner 2']);
  assert.equal(await seatRating(page, 1), HOUSE_ANCHORS.beginner);
  await page.goto(BASE);
  assert.equal(await page.getByTestId('bot-level').inputValue(), 'beginner', 'remembered');
  await page.context().close();
});
