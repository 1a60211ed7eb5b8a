// Browser tests of the challenge modes (issue 7): each mode started from the hall, one deal played through the
// UI, the run's bar, abandoning, the rally comparison, the player's standing on the hall's tiles, the boards
// and the stats pages.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/challenges.mjs (the server's bots may be sped up with
// `ddz serve --bot-delay-ms 100 --bot-delay-span-ms 100`).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, asPlayer, chooseLanguage, newPage, playDeal, shot, tapCard, useBrowser } from './harness.mjs';

useBrowser();

/** Starts `kind` from the home screen as `name` and plays its first deal. */
async function firstDeal(kind, label, name, max) {
  const page = await newPage();
  await asPlayer(page, name);
  await page.getByTestId(`start-${kind}`).click();
  // Three runs start at once on a busy machine: a minute for the deal, and on failure what the page showed.
  await page
    .locator('[data-testid=hand] .card')
    .nth(16)
    .waitFor({ timeout: 60_000 })
    .catch(async (e) => {
      await shot(page, `challenge-${kind}-no-hand`);
      throw new Error(`${label}: no hand of 17 at ${page.url()}; the page said:\n${await page.locator('body').innerText()}\n${e.message}`);
    });
  const bar = page.getByTestId('challenge');
  assert.match(await bar.innerText(), new RegExp(label));
  assert.equal(await page.getByTestId('run-deal').innerText(), `Deal 1 of ${max}`);
  await playDeal([page]);
  return page;
}

/** Abandons the run from the deal's result and waits for the run's end. */
async function abandon(page) {
  await page.getByTestId('result').getByRole('button', { name: 'Abandon run' }).click();
  await page.getByTestId('run-over').waitFor();
}

/** A net as the pages write it: `+$12`, `−$4`. */
const signed = (amount) => `${amount < 0 ? '−' : '+'}$${Math.abs(amount)}`;

function net(text) {
  const m = text.match(/Net ([+−])\$(\d+)/);
  assert.ok(m, `a net in ${JSON.stringify(text)}`);
  return (m[1] === '−' ? -1 : 1) * Number(m[2]);
}

test('each challenge starts from the home screen, plays a deal, and lands on its board', { timeout: 600_000 }, async () => {
  const [buster, bomber, rally] = await Promise.all([
    firstDeal('buster', 'Bot Buster', 'Buster Fan', 20),
    firstDeal('bomber', 'Bot Bomber', 'Bomber Fan', 20),
    firstDeal('rally', 'Bang rally \\d{4}-\\d\\d-\\d\\d', 'Rally Fan', 10),
  ]);

  // Bot Buster: the next deal advances the run; then abandon it mid-deal.
  await shot(buster, 'challenge-buster');
  const busterNet = net(await buster.getByTestId('run-net').innerText());
  await buster.getByRole('button', { name: 'Deal next hand' }).click();
  await buster.getByTestId('run-deal').filter({ hasText: 'Deal 2 of 20' }).waitFor();
  await buster.getByRole('button', { name: 'Abandon run' }).click();
  await buster.getByTestId('run-over').waitFor();
  assert.equal(net(await buster.getByTestId('run-net').innerText()), busterNet, 'the abandoned deal was refunded');
  assert.match(await buster.locator('.log').textContent(), /Buster Fan abandoned the run at [+−]\$\d+/);
  // The hall's tile shows the run: the player's best, first on the board; a new run is one tap away.
  await buster.getByRole('button', { name: 'Home' }).last().click();
  await buster.getByTestId('standing-buster').filter({ hasText: `Best ${signed(busterNet)} · #1` }).waitFor();

  // Bot Bomber and the rally: abandon after the first deal.
  await abandon(bomber);
  await abandon(rally);
  const compare = rally.getByTestId('rally-compare');
  await compare.waitFor();
  assert.equal(await compare.locator('tbody tr').count(), 2, 'one deal and the total');
  await shot(rally, 'challenge-rally-over');

  // One attempt per rally: the hall's tile shows today's, and a second start from it is refused with a reason.
  const rallyNet = net(await rally.getByTestId('run-net').innerText());
  await rally.getByRole('button', { name: 'Home' }).last().click();
  await rally.getByTestId('standing-rally').filter({ hasText: `Today ${signed(rallyNet)} · #1` }).waitFor();
  await rally.getByTestId('start-rally').click();
  await rally.getByRole('alert').filter({ hasText: "already played today's rally" }).waitFor();
  // The comparison stays available from the rally's board.
  await rally.goto(`${BASE}/#/boards/rally`);
  await rally.getByTestId('board').getByRole('row', { name: /Rally Fan/ }).waitFor();
  await rally.getByTestId('rally-compare').waitFor();

  // The boards: each result on its own board; the rally board has its date picker.
  const boards = await newPage();
  await boards.goto(`${BASE}/#/boards/buster`);
  const row = (name) => boards.getByTestId('board').locator('tr', { hasText: name });
  await row('Buster Fan').waitFor();
  assert.match(await row('Buster Fan').innerText(), new RegExp(`^1\\s+Buster Fan\\s+[+−]\\$${Math.abs(busterNet)}\\s+1\\s+\\d{4}-`));
  await boards.getByRole('tab', { name: 'Bot Bomber' }).click();
  await row('Bomber Fan').waitFor();
  await boards.getByRole('tab', { name: 'Bang rally' }).click();
  await row('Rally Fan').waitFor();
  assert.ok((await boards.getByTestId('rally-date').inputValue()).match(/^\d{4}-\d\d-\d\d$/));
  await shot(boards, 'boards');

  // A player's stats page, from the board (a rally's deals reach stats only once the day's rally closes:
  // docs/ratings.md, "What counts").
  await boards.getByRole('tab', { name: 'Bot Bomber' }).click();
  await row('Bomber Fan').getByRole('link').click();
  const house = boards.getByTestId('stats-house');
  await house.waitFor();
  assert.match(await house.innerText(), /Deals\s+1/);
  await shot(boards, 'stats');

  for (const page of [buster, bomber, rally, boards]) await page.context().close();
});

test('the Chinese table words plays, refusals and the log in Chinese', { timeout: 120_000 }, async () => {
  const page = await newPage();
  await page.goto(BASE);
  await chooseLanguage(page, '简体中文');
  await asPlayer(page, 'Zhang San');
  await page.getByRole('button', { name: '对战两个机器人' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
  const reading = page.getByTestId('trick-reading');
  let refused = false;
  const end = Date.now() + 90_000;
  while (!(refused && (await reading.isVisible()))) {
    assert.ok(Date.now() < end, 'a play and a refusal were seen in time');
    const take = page.getByRole('button', { name: '拿底牌' });
    const seen = page.getByRole('button', { name: '看过了' });
    const hint = page.getByRole('button', { name: '提示' });
    if (await take.isVisible()) await take.click();
    else if (await seen.isVisible()) await seen.click();
    else if (await hint.isVisible()) {
      if (!refused) {
        // Two cards of different ranks (neither the Wild nor both jokers) are never a play: the reason
        // comes in Chinese.
        const cards = await page.locator('[data-testid=hand] .card').evaluateAll((els) => els.map((e) => e.dataset.card));
        const rank = (c) => (c.endsWith('J') ? c : c[0]);
        const plain = cards.filter((c) => c !== 'W');
        const first = plain[0];
        const second = plain.find((c) => rank(c) !== rank(first) && !(c.endsWith('J') && first.endsWith('J')));
        for (const c of [first, second]) await tapCard(page, c);
        const reason = page.locator('.reason');
        await reason.waitFor({ timeout: 5000 });
        assert.equal(await reason.innerText(), '这些牌不成一手牌');
        for (const c of [first, second]) await tapCard(page, c);
        refused = true;
      }
      await hint.click();
      const play = page.getByRole('button', { name: '出牌', exact: true });
      const playable = await play.and(page.locator(':enabled')).waitFor({ timeout: 3000 }).then(() => true, () => false);
      await (playable ? play : page.getByRole('button', { name: '不出', exact: true })).click();
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  assert.match(await reading.innerText(), /^(单张|对|三个|飞机|顺子|连对|四个|炸弹|王炸)/);
  assert.match(await page.locator('.log').textContent(), /Zhang San 坐下了/);
  // Bots are named in Chinese too.
  assert.match((await page.locator('.seat .name').allInnerTexts()).join(' '), /(新手|简单|普通|困难)机器人 2/);
  assert.match(await page.locator('.log').textContent(), /(新手|简单|普通|困难)机器人 坐下了/);
  await shot(page, 'table-zh');
  await page.context().close();
});
