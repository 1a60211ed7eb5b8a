// Typed play and the screen reader's announcements: a whole deal against two bots played from the keyboard
// alone once the room is made (`/` goes to the play field; the auction's words, `seen`, ranks and `pass` are
// typed, and Enter sends them), with refusals of plays that are not in the hand, not readable or no play;
// the aria-live region says the turns, the bots' actions and the result. Then the field on a phone held
// upright, and in Chinese. Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/typed.mjs (a server with quick bots:
// --bot-delay-ms 100 --bot-delay-span-ms 100). Screenshots `typed-play` and `typed-play-phone` when
// DDZ_SCREENSHOTS is set.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  asPlayer,
  PORTRAIT,
  api,
  assertLayout,
  handCards,
  newPage,
  probe,
  publicView,
  rankOf,
  ranks,
  shot,
  sleep,
  uniqueName,
  useBrowser,
} from './harness.mjs';

useBrowser();

const screenshot = (page, name) => (process.env.DDZ_SCREENSHOTS ? shot(page, name) : undefined);

/** A new page that records every line the live region says (a screen reader hears each as it is added). */
async function listeningPage(viewport) {
  const page = await newPage(viewport);
  await page.addInitScript(() => {
    window.__heard = [];
    new MutationObserver((records) => {
      for (const r of records)
        if (r.target.dataset?.testid === 'announcer')
          for (const n of r.addedNodes) if (n.nodeType === 1) window.__heard.push(n.textContent);
    }).observe(document, { childList: true, subtree: true });
  });
  return page;
}

const heard = (page) => page.evaluate(() => window.__heard);
const field = (page) => page.getByRole('textbox', { name: 'Type a play, then Enter' });
const note = (page) => page.getByTestId('typed-note').innerText();

/** A card as the field takes it: its rank, `10` for a ten, `b` `r` `w` for the jokers and the Wild. */
const typedRank = (card) => ({ T: '10', BJ: 'b', RJ: 'r', W: 'w' })[rankOf(card)] ?? rankOf(card);

/** Types a line into the play field (reached with `/`, emptied first) and presses Enter. */
async function typeLine(page, line) {
  if (!(await page.evaluate(() => document.activeElement?.dataset.testid === 'typed-play'))) await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'typed-play', '/ goes to the field');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** After Enter: the field empties once the action went, or says something. */
async function outcome(page) {
  await page.waitForFunction(() => {
    const input = document.querySelector('[data-testid=typed-play]');
    return !input || input.value === '' || document.querySelector('[data-testid=typed-note]').textContent !== '';
  }, null, { timeout: 10_000 });
  return (await page.getByTestId('typed-play').count()) === 0 ? '' : note(page);
}

/** The legal plays of the player's hand now, as the Hint finds them (`POST /api/hints`). */
async function legalPlays(page) {
  const deal = (await publicView(page)).deal;
  const hand = await handCards(page);
  const { plays } = await api('/api/hints', { rules: deal.rules, wild_rank: deal.wild_rank, hand, prior: deal.trick?.play ?? null });
  return plays;
}

/** Refusals, each with nothing sent: ranks not in the hand, a line that is no play, and one that is unreadable. */
async function refusals(page) {
  const before = { hand: (await handCards(page)).length, actions: (await publicView(page)).deal.actions.length };
  const hand = await handCards(page);

  // Five of a rank: no hand holds them.
  const rank = rankOf(hand.find((c) => c.length === 2 && c !== 'BJ' && c !== 'RJ'));
  await typeLine(page, typedRank(rank).repeat(5));
  assert.match(await outcome(page), /^Not in your hand: (10|[2-9JQKA])( \1)*\.$/);
  assert.equal(await field(page).getAttribute('aria-invalid'), 'true');

  // Two cards of different ranks are never a play: the server says why, in the field.
  const [a, b] = [...new Set(hand.map(rankOf))].filter((r) => r.length === 1 && r !== 'W');
  await typeLine(page, `${typedRank(a)} ${typedRank(b)}`);
  assert.equal(await outcome(page), 'Those cards are not a play.');
  await screenshot(page, 'typed-play');

  await typeLine(page, '3x');
  assert.equal(await outcome(page), 'Cannot read “x”: type ranks (3-9, 10, J Q K A 2, b r w) or a word such as pass.');
  // Editing the line takes the reason away.
  await page.keyboard.press('Backspace');
  assert.equal(await note(page), '');

  const after = { hand: (await handCards(page)).length, actions: (await publicView(page)).deal.actions.length };
  assert.deepEqual(after, before, 'a refused line sends nothing');
}

/** Tabs to the button named `name` and presses Enter: the keyboard's way to a button. */
async function pressByTab(page, name) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === name) return page.keyboard.press('Enter');
  }
  assert.fail(`Tab reaches ${name}`);
}

/**
 * Plays the deal by typing until its result shows: `take` and `seen` when asked, a legal play (one that
 * reads several ways when there is one, else the longest) or a pass; the refusals at the first turn to play
 * (`typing.refused`). Returns the plays typed and the lines the live region must have said of the plays
 * whose reading was chosen.
 */
async function typeDeal(page, name, typing) {
  let plays = 0;
  const chosen = [];
  const deadline = Date.now() + 150_000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'the deal ends in time');
    const { over, buttons } = await probe(page);
    if (over) return { plays, chosen };
    if (buttons.includes('Take the middle cards')) {
      await typeLine(page, 'take');
      assert.equal(await outcome(page), '');
    } else if (buttons.includes('Seen')) {
      await typeLine(page, 'seen');
      assert.equal(await outcome(page), '');
    } else if (buttons.includes('Hint')) {
      if (!typing.refused) {
        await refusals(page);
        typing.refused = true;
      }
      const legal = await legalPlays(page);
      if (legal.length === 0) {
        // English and Chinese words alike.
        await typeLine(page, typing.passes++ % 2 ? '过' : 'pass');
        assert.equal(await outcome(page), '');
        continue;
      }
      const typed = (p) => ranks(p.cards);
      const play =
        legal.find((p) => legal.some((q) => q !== p && typed(q) === typed(p))) ??
        legal.reduce((a, b) => (b.cards.length > a.cards.length ? b : a));
      const handBefore = (await handCards(page)).length;
      // Ranks run together and apart.
      await typeLine(page, play.cards.map(typedRank).join(plays++ % 2 ? ' ' : ''));
      let said = await outcome(page);
      if (said.startsWith('Play as ')) {
        // Several readings: the pills show, ↓ chooses the next, and Enter again plays it.
        await page.getByRole('radiogroup', { name: 'Play as:' }).waitFor();
        await page.keyboard.press('ArrowDown');
        const reading = await page.getByRole('radio', { checked: true }).innerText();
        assert.equal(await note(page), `Play as ${reading}? ↑ ↓ another reading, Enter plays.`);
        await page.keyboard.press('Enter');
        said = await outcome(page);
        chosen.push(`${name}: ${reading}`);
      }
      assert.equal(said, '', `${play.text} plays`);
      assert.ok((await handCards(page)).length < handBefore, `${play.text} left the hand`);
    } else await sleep(100);
  }
}

test('a deal played by typing alone, told by the live region', { timeout: 300_000 }, async () => {
  const page = await listeningPage();
  const name = uniqueName('Typer');
  await asPlayer(page, name);
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  // The field waits behind the keyboard button; `/` opens it.
  await page.getByTestId('typed-toggle').waitFor();
  await page.keyboard.press('/');
  await field(page).waitFor();
  const seat = Number(await page.locator('.seat.me').getAttribute('data-seat'));
  assert.match(await page.locator('.keys-help .popup').textContent(), /\/ goes to the play field/, 'the Keys help tells of it');

  // A deal where the bots went out before the player had a play to make is followed by the next one.
  const typing = { refused: false, passes: 0 };
  let deal;
  for (let deals = 1; ; deals++) {
    deal = await typeDeal(page, name, typing);
    if (deal.plays > 0) break;
    assert.ok(deals < 5, 'the player plays in one of five deals');
    await page.evaluate(() => (window.__heard = []));
    await pressByTab(page, 'Deal next hand');
    await page.getByTestId('result').waitFor({ state: 'hidden' });
  }

  // The deal as the live region said it.
  const view = (await publicView(page)).deal;
  const lines = await heard(page);
  const text = lines.join('\n');
  assert.ok(lines.includes('Your turn'), text);
  assert.ok(lines.some((l) => /^Bot (Beginner|Easy|Normal|Hard)( 2)?(: .+| passed| took the middle cards)$/.test(l)), `a bot's action:\n${text}`);
  assert.ok(lines.some((l) => l.startsWith(`${name}: `) || l.startsWith(`${name} bombed: `)), `the player's play:\n${text}`);
  // The player takes whenever offered, after the page came: then it was said.
  if (view.landlord === seat) assert.ok(lines.includes(`${name} took the middle cards`), `the landlord:\n${text}`);
  assert.match(lines.at(-1), /^The (landlord wins|farmers win)! You (won|lost) \$\d+$/, text);
  // Every play of the deal was said.
  const playsSaid = lines.filter((l) => /^.+?(: | bombed: )/.test(l)).length;
  assert.equal(playsSaid, view.actions.filter((a) => a.action === 'play').length, text);
  for (const line of deal.chosen) assert.ok(lines.includes(line) || lines.includes(line.replace(': ', ' bombed: ')), `${line}:\n${text}`);
  console.log(`typed deal done: ${deal.plays} plays typed, ${typing.passes} passes, ${deal.chosen.length} readings chosen`);
  await page.context().close();
});

test('the play field fits a phone held upright, and speaks Chinese', { timeout: 60_000 }, async () => {
  const page = await listeningPage(PORTRAIT);
  await asPlayer(page, uniqueName('Thumb'));
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
  // On a phone the field waits behind the keyboard button.
  await page.getByTestId('typed-toggle').tap();
  const input = field(page);
  await input.waitFor();
  await assertLayout(page, 'the table with the play field');
  const box = await input.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PORTRAIT.width && box.y + box.height <= PORTRAIT.height, `the field is on the screen: ${JSON.stringify(box)}`);
  const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.dataset.testid, [box.x + box.width / 2, box.y + box.height / 2]);
  assert.equal(hit, 'typed-play', 'nothing covers the field');
  // A line typed in it, as a thumb would.
  const hand = await handCards(page);
  await page.keyboard.press('/');
  await page.keyboard.type(hand.slice(-3).map(typedRank).join(' '));
  await assertLayout(page, 'a line in the play field');
  await screenshot(page, 'typed-play-phone');

  // In Chinese: the field's name, a refusal, and the live region.
  await page.evaluate(() => localStorage.setItem('ddz.lang', 'zh'));
  await page.reload();
  await page.getByTestId('typed-toggle').tap();
  await page.getByRole('textbox', { name: '输入出牌，按 Enter 发送' }).waitFor();
  await typeLine(page, 'x');
  assert.equal(await outcome(page), '看不懂“x”：请输入点数（3-9、10、J Q K A 2、b r w）或 过 等词。');
  const deadline = Date.now() + 20_000;
  while (!(await heard(page)).some((l) => /\p{Script=Han}/u.test(l))) {
    assert.ok(Date.now() < deadline, 'the live region speaks Chinese');
    const { buttons } = await probe(page);
    for (const word of ['拿底牌', '看过了']) if (buttons.includes(word)) await typeLine(page, word);
    await sleep(200);
  }
  await page.context().close();
});
