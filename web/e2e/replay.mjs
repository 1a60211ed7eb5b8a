// The replay viewer: a deal played vs bots (the bot plays the player's turns), then `/replay/CODE/1` stepped
// through by buttons, keys, the timeline and autoplay, its log, its result, Verify (with the nonce this page
// added to the deal), the bot's review, Chinese and a phone. And spectators: a public table watched from the lobby's Watch link, live, without a seat.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/replay.mjs (a server with quick bots:
// --bot-delay-ms 100 --bot-delay-span-ms 100). Screenshots `replay` and `replay-phone` when DDZ_SCREENSHOTS
// is set.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { BASE, asPlayer, PORTRAIT, api, assertLayout, newPage, shot, uniqueName, useBrowser } from './harness.mjs';
import { axeViolations } from './layout.mjs';

useBrowser();

const screenshot = (page, name) => (process.env.DDZ_SCREENSHOTS ? shot(page, name) : undefined);

/** The step the replay shows, and what its timeline says. */
const stepOf = (page) => page.locator('main.replay').getAttribute('data-step').then(Number);
const timelineValue = (page) => page.getByTestId('timeline').inputValue().then(Number);

/** Each seat's cards face up, and the bottom cards. */
function shownCards(page) {
  return page.evaluate(() => {
    const count = (sel) => document.querySelectorAll(`${sel} [data-card]`).length;
    return { hands: [0, 1, 2].map((s) => count(`[data-testid=replay-hand-${s}]`)), bottom: count('[data-testid=replay-bottom]') };
  });
}

async function waitForStep(page, n) {
  await page.locator(`main.replay[data-step="${n}"]`).waitFor({ timeout: 5000 });
  assert.equal(await timelineValue(page), n, 'the timeline follows the step');
}

test('a finished deal replays step by step, and verifies', { timeout: 240_000 }, async () => {
  const page = await newPage();
  const playerName = uniqueName('Replayer');
  await asPlayer(page, playerName);
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
  await page.getByTestId('auto-play').click();
  await page.getByTestId('result').waitFor({ timeout: 150_000 });
  const code = new URL(page.url()).searchParams.get('room');

  // The table log lists the room's finished deals; the result links to its replay.
  await page.locator('.log summary').click();
  const listed = page.getByTestId('replays').getByRole('link', { name: 'Deal 1' });
  assert.equal(await listed.getAttribute('href'), `/replay/${code}/1`);
  await page.locator('.log summary').click();
  await page.getByTestId('result-replay').click();
  await page.waitForURL(`**/replay/${code}/1`);

  const { deals } = await api(`/api/rooms/${code}/deals`);
  const record = deals[0];
  const replay = await api(`/api/rooms/${code}/deals/1`);
  const last = replay.steps.length - 1;
  assert.equal(last, record.actions.length, 'a step per action, and the deal as dealt');

  // Step 0: the deal as dealt, every hand face up.
  await page.getByTestId('replay-hand-0').locator('[data-card]').first().waitFor();
  assert.equal(await stepOf(page), 0);
  const dealt = await shownCards(page);
  assert.deepEqual(dealt.hands, [17, 17, 17]);
  assert.equal(dealt.bottom, record.rules === 'house' ? 4 : 3);
  assert.deepEqual(
    await page.getByTestId('replay-hand-1').locator('[data-card]').evaluateAll((els) => els.map((e) => e.dataset.card).sort()),
    [...replay.steps[0].hands[1]].sort(),
    'seat 1 holds the cards the server dealt',
  );
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), `Replay: room ${code}, deal 1`);
  await assertLayout(page, 'a replay as dealt');

  // ▶ and → step forward, ◀ back; Home and End jump; the timeline follows.
  await page.getByRole('button', { name: 'Step forward' }).click();
  await waitForStep(page, 1);
  await page.keyboard.press('ArrowRight');
  await waitForStep(page, 2);
  await page.getByRole('button', { name: 'Step back' }).click();
  await waitForStep(page, 1);
  await page.keyboard.press('ArrowLeft');
  await waitForStep(page, 0);
  // The log highlights the current step's line: the first action after one step.
  await page.keyboard.press('ArrowRight');
  await waitForStep(page, 1);
  const firstLine = await page.getByTestId('replay-log').locator('li[aria-current]').first().innerText();
  assert.ok(firstLine.startsWith(record.seats[record.actions[0].seat]), `the first action's line: ${firstLine}`);

  // The counts fall as the deal goes on: the first play takes its cards out of the player's hand.
  const firstPlay = record.actions.findIndex((a) => a.action === 'play');
  await page.getByTestId('timeline').fill(String(firstPlay));
  await waitForStep(page, firstPlay);
  const before = (await shownCards(page)).hands;
  await page.keyboard.press('ArrowRight');
  await waitForStep(page, firstPlay + 1);
  const after = (await shownCards(page)).hands;
  const player = record.actions[firstPlay].seat;
  assert.equal(after[player], before[player] - record.actions[firstPlay].cards.length, 'the played cards leave the hand');
  await page.getByTestId('played-' + player).waitFor();
  await page.getByTestId('trick').waitFor();
  await assertLayout(page, 'a replay mid-deal');

  // End: the result, with the amount explained line by line.
  await page.keyboard.press('End');
  await waitForStep(page, last);
  const result = page.getByTestId('replay-result');
  await result.getByRole('heading', { name: /wins?!|No winner/ }).waitFor();
  const lines = await result.getByTestId('score-lines').locator('li').allInnerTexts();
  assert.ok(lines.length > 0, 'score lines');
  if (record.rules.startsWith('house')) assert.match(lines[0], /^Ante: landlord \$2, each tenant \$1$/);
  const end = (await shownCards(page)).hands;
  assert.equal(end[record.result.winner], 0, 'the winner went out');
  assert.ok(end.reduce((a, b) => a + b) < 51, 'cards were played');
  assert.deepEqual(await axeViolations(page), [], 'axe at the end of a replay');
  await assertLayout(page, 'a replay at its end');
  await screenshot(page, 'replay');

  // Autoplay (at 4×) advances by itself; Space pauses it, even with the focus on a step button.
  await page.keyboard.press('Home');
  await waitForStep(page, 0);
  await page.getByLabel('Speed').selectOption('4');
  await page.getByTestId('autoplay').click();
  await page.locator('main.replay:not([data-step="0"]):not([data-step="1"])').waitFor({ timeout: 5000 });
  await page.getByRole('button', { name: 'Step forward' }).focus();
  await page.keyboard.press(' ');
  assert.equal(await page.getByTestId('autoplay').getAttribute('aria-pressed'), 'false', 'Space pauses');
  const paused = await stepOf(page);
  await page.waitForTimeout(600);
  assert.equal(await stepOf(page), paused, 'a paused replay stays');

  // Verify: the commitment is the SHA-256 of the seed and the salt.
  await page.getByRole('button', { name: 'Verify the deal' }).click();
  await page.getByTestId('verify-result').filter({ hasText: '✓ Fair: the commitment matches the seed' }).waitFor();
  assert.match(await page.getByTestId('verify').innerText(), new RegExp(record.commitment));
  // The deal was dealt from the server's seed and this page's nonce (docs/fair-deals.md): the record holds it
  // by the player's seat and none by the bots', the nonce the page kept is that one, the panel shows each
  // seat's and says that this browser's went in, and the dealing seed is the SHA-256 of ddz-deal/2.
  const me = record.seats.indexOf(playerName);
  const nonces = record.nonces ?? [];
  assert.match(nonces[me] ?? '', /^[0-9a-f]{64}$/, `the player's nonce is in the record: ${JSON.stringify(record.nonces)}`);
  nonces.forEach((nonce, seat) => seat === me || assert.equal(nonce, null, `bot seat ${seat} adds no nonce`));
  const kept = await page.evaluate((c) => sessionStorage.getItem(`ddz.nonce.${c}`), record.commitment);
  assert.equal(kept, nonces[me], 'the nonce this page sent');
  assert.equal(await page.getByTestId('own-nonce').innerText(), 'Your nonce went into this deal ✓');
  assert.deepEqual(
    await page.getByTestId('nonces').locator('dt').allInnerTexts(),
    record.seats.map((name, seat) => (seat === me ? `${name} (yours)` : name)),
  );
  assert.deepEqual(await page.getByTestId('nonces').locator('dd').allInnerTexts(), nonces.map((n) => n ?? "none: the server's"));
  const parts = nonces.map((n) => n ?? '-');
  const dealing = createHash('sha256').update(`ddz-deal/2:${record.seed}:${parts.join(':')}`).digest('hex');
  await page.getByTestId('dealing-seed').filter({ hasText: dealing }).waitFor();
  const commands = await page.getByTestId('verify-commands').innerText();
  for (const line of [
    `printf 'ddz-fair/1:%s:%s' ${record.seed} ${record.salt} | sha256sum`,
    `printf 'ddz-deal/2:%s${':%s'.repeat(parts.length)}' ${record.seed} ${parts.join(' ')} | sha256sum`,
  ])
    assert.ok(commands.includes(line), `${line} in:\n${commands}`);
  assert.equal(await page.getByTestId('replay-link').getByRole('textbox').inputValue(), `${BASE}/replay/${code}/1`);

  // The bot's review of a seat's play, asked for here: the seat with the most mistakes by the server's account
  // (or the most decisions).
  const reviews = await Promise.all([0, 1, 2].map((seat) => api(`/api/rooms/${code}/deals/1/reviews/${seat}`)));
  const mistakesOf = ({ review }) => review.decisions.filter((d) => d.mistake);
  const weight = (r) => mistakesOf(r).length * 1000 + r.review.decisions.length;
  let reviewed = reviews.reduce((best, r) => (weight(r) > weight(best) ? r : best));
  const seat = reviewed.review.seat;
  const review = page.getByTestId('review');
  await review.getByLabel('Whose play').selectOption(String(seat));
  const ask = async () => {
    await review.getByRole('button', { name: 'Ask the bot' }).click();
    const summary = `${record.seats[seat]}: ${reviewed.review.decisions.length} decision`;
    await review.getByTestId('review-summary').filter({ hasText: summary }).waitFor();
    const mistakes = mistakesOf(reviewed);
    assert.match(await review.getByTestId('review-summary').innerText(), new RegExp(`, ${mistakes.length} mistakes?\\.`));
    assert.equal(await page.locator('.timeline .mark').count(), mistakes.length, 'each mistake marked on the timeline');
    assert.equal(await review.getByTestId('review-mistakes').locator('li').count(), mistakes.length);
    return mistakes;
  };
  let mistakes = await ask();
  if (mistakes.length === 0) {
    // Hard bots seldom blunder: the same review with its first decision made a mistake, so that the marks and
    // the words are checked on every run.
    reviewed = structuredClone(reviewed);
    Object.assign(reviewed.review.decisions[0], { best_chance: 0.62, played_chance: 0.41, mistake: true });
    await page.route(`**/api/rooms/${code}/deals/1/reviews/${seat}`, (route) => route.fulfill({ json: reviewed }));
    mistakes = await ask();
  }
  // A mistake steps the replay to its decision and says what the bot would have played.
  await review.getByRole('button', { name: `Step ${mistakes[0].step}`, exact: true }).click();
  await waitForStep(page, mistakes[0].step);
  const here = await review.getByTestId('review-here').innerText();
  const percent = (p) => `${Math.round(p * 100)}%`;
  assert.match(here, /^Here .+ kept the win chance at \d+%; .+ dropped it to \d+%\.$/, here);
  assert.ok(here.includes(percent(mistakes[0].best_chance)) && here.includes(percent(mistakes[0].played_chance)), here);
  await page.unrouteAll();
  await assertLayout(page, 'a replay with its review');
  await screenshot(page, 'replay-review');

  // In Chinese: the title, the controls, the log and the verdict.
  await page.getByRole('button', { name: '简体中文' }).click();
  await page.getByRole('heading', { level: 1, name: `回放：房间 ${code}，第 1 局` }).waitFor();
  await page.getByRole('button', { name: '验证本局' }).click();
  await page.getByTestId('verify-result').filter({ hasText: '✓ 公平：承诺与种子相符' }).waitFor();
  await page.getByTestId('own-nonce').filter({ hasText: '你的随机数已计入本局 ✓' }).waitFor();
  await page.keyboard.press('End');
  await page.getByTestId('replay-result').getByRole('heading', { name: /地主赢了！|农民赢了！|没有赢家/ }).waitFor();
  assert.match(await page.getByTestId('replay-log').innerText(), /拿了底牌|叫|不出/);
  // The bots are named as at the table, not `Bot Hard 2`.
  const seatNames = (await page.locator('.replay-seat .name').allInnerTexts()).join(' ');
  assert.match(seatNames, /(新手|简单|普通|困难)机器人 2/);
  assert.doesNotMatch(seatNames + (await page.getByTestId('replay-log').innerText()), /Bot (Beginner|Easy|Normal|Hard)/);
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByRole('heading', { level: 1, name: `Replay: room ${code}, deal 1` }).waitFor();

  // On a phone held upright: the replay fits, and the controls stay on the screen.
  const phone = await newPage(PORTRAIT);
  await phone.goto(`${BASE}/replay/${code}/1`);
  await phone.getByTestId('replay-hand-2').locator('[data-card]').nth(16).waitFor();
  await assertLayout(phone, 'a replay on a phone');
  const controls = await phone.getByTestId('autoplay').boundingBox();
  assert.ok(controls.y + controls.height <= PORTRAIT.height, 'the controls are on the screen');
  await phone.getByRole('button', { name: 'Last step' }).click();
  await phone.getByTestId('replay-result').waitFor();
  await assertLayout(phone, 'a replay at its end on a phone');
  await screenshot(phone, 'replay-phone');

  // A deal the room never played: the server's reason.
  await phone.goto(`${BASE}/replay/${code}/99`);
  await phone.getByRole('alert').waitFor();
  await phone.context().close();
  await page.context().close();
});

test('a spectator watches a public table live from the lobby and never takes a seat', { timeout: 240_000 }, async () => {
  const host = await newPage();
  const hostName = uniqueName('Showman');
  await asPlayer(host, hostName);
  await host.getByRole('button', { name: 'Open a public table' }).click();
  // One bot at a time: a second click before the first bot's state arrives would land on the same seat.
  const addBot = host.getByRole('button', { name: 'Add bot' });
  for (const left of [1, 0]) {
    await addBot.first().click();
    await host.waitForFunction(
      (left) => [...document.querySelectorAll('button')].filter((b) => b.textContent.trim() === 'Add bot').length === left,
      left,
    );
  }
  const code = new URL(host.url()).searchParams.get('room');

  // Someone without a name finds the table in the lobby and watches it.
  const watcher = await newPage(PORTRAIT);
  await watcher.goto(BASE);
  const row = watcher.locator('.lobby li', { hasText: code });
  await row.getByRole('link', { name: 'Watch' }).click();
  await watcher.waitForURL(`**/watch/${code}`);
  await watcher.getByTestId('spectating').waitFor();
  await host.getByTestId('watching').filter({ hasText: '1 watching' }).waitFor();

  await host.getByRole('button', { name: 'Deal the first hand' }).click();
  await host.getByTestId('auto-play').click();
  await watcher.locator('.seat .name', { hasText: hostName }).waitFor();
  // Live, with only what everyone sees: no hand, and no way to sit.
  await watcher.locator('[data-testid^=played-]').first().waitFor({ timeout: 60_000 });
  assert.equal(await watcher.locator('[data-testid=hand]').count(), 0, 'a spectator holds no cards');
  assert.equal(await watcher.getByRole('button', { name: 'Sit' }).count(), 0, 'no seat to take by accident');
  await assertLayout(watcher, 'a spectator on a phone');
  await screenshot(watcher, 'watch-phone');
  await watcher.getByTestId('result').waitFor({ timeout: 150_000 });
  const hands = (await api(`/api/rooms/${code}`)).deal.hands_at_end;
  for (const [seat, cards] of hands.entries()) {
    const shown = await watcher.getByTestId(`hand-end-${seat}`).locator('[data-card]').evaluateAll((els) => els.map((e) => e.dataset.card));
    assert.deepEqual(shown.sort(), [...cards].sort(), `seat ${seat}'s hand face up at the end`);
  }
  assert.deepEqual(await axeViolations(watcher), [], 'axe for a spectator');

  // Joining to play is a deliberate step: the join page, which asks for a name.
  await watcher.getByTestId('spectating').click();
  await watcher.waitForURL(`**/?room=${code}`);
  await watcher.getByLabel('Your name').waitFor();
  await host.getByTestId('watching').waitFor({ state: 'detached' });
  await watcher.context().close();
  await host.context().close();
});
