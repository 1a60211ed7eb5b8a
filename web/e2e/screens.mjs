// Every screen (issue 13): the home page and a House deal against two bots with the player as the landlord
// (the widest hand: 21 cards with the Wild), at five sizes from a small phone held upright to a desktop.
// Before each step a person would take, the screen is checked (layout.mjs): each card of the hand keeps a
// strip that takes a tap, the action buttons are not covered, no text overlaps; axe-core finds no contrast
// or naming problems on the home page, the table and the deal's result; the longest plays, built for one
// check, keep the trick and the middle cards in view. Phones act by touch, the others by
// mouse, and every size plays turns by keyboard too.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/screens.mjs (quicker with `ddz serve --bot-delay-ms 100
// --bot-delay-span-ms 100`).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations } from './layout.mjs';
import {
  BASE,
  SCREENS,
  PHONE,
  PORTRAIT,
  SMALL_PHONE,
  inviteRoom,
  playDeal,
  publicView,
  assertLayout,
  button,
  handCards,
  newPage,
  probe,
  selectedCards,
  assertHandsFaceUp,
  shot,
  sleep,
  tap,
  tapCard,
  uniqueName,
  useBrowser,
} from './harness.mjs';

useBrowser();

async function assertAxe(page, when) {
  const { width, height } = page.viewportSize();
  assert.deepEqual(await axeViolations(page), [], `axe-core on ${when} at ${width}x${height}`);
}

/** Taps a button and waits for the server's answer to take it away. */
async function tapButton(page, name) {
  const b = button(page, name);
  await tap(page, b);
  await b.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
}

const phase = (page) => page.locator('.table-screen').getAttribute('data-phase');

/** Takes the middle cards whenever offered; true once the player is the landlord, false once a bot is. */
async function auction(page) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'the auction ends in time');
    const { buttons } = await probe(page);
    if (buttons.includes('Take the middle cards')) {
      await assertLayout(page, 'the auction');
      await tapButton(page, 'Take the middle cards');
    } else if ((await phase(page)) !== 'auction') {
      return (await page.locator('.seat.me .badge.landlord').count()) === 1;
    } else await sleep(100);
  }
}

/** No rank is written `T` where the cards say 10: plays, reading pills, chips, the counter. */
async function assertTens(page) {
  for (const text of await page.locator('.reading, .pill, .chip, .counter .rank, .say').allInnerTexts())
    assert.doesNotMatch(text, /\bTs?\b/, `"${text}" writes 10 as T`);
}

/** The landlord's first turn: cards tapped where they show are selected; Escape clears; layout and axe. */
async function firstTurn(page) {
  const hand = await handCards(page);
  assert.equal(hand.length, 21, 'the landlord holds 17 cards and the 4 middle cards');
  assert.equal(await page.title(), '● Your turn — Dou Dizhu');
  // A phone shows the counter's title behind More.
  const more = button(page, 'More');
  const behindMore = await more.isVisible();
  if (behindMore) await tap(page, more);
  await page.getByRole('heading', { name: 'Not seen yet' }).waitFor();
  if (behindMore) {
    await tap(page, more);
    // The keys of the turn work again once the menu's button lets the focus go.
    await page.evaluate(() => document.activeElement.blur());
  }
  await assertAxe(page, 'the table');
  for (const card of [hand[0], hand[10], hand.at(-1)]) await tapCard(page, card);
  assert.deepEqual((await selectedCards(page)).sort(), [hand[0], hand[10], hand.at(-1)].sort(), 'a tap selects the card it lands on');
  await page.keyboard.press('Escape');
  assert.deepEqual(await selectedCards(page), []);
}

/**
 * The longest plays a deal may not have given, built from the page's own cards for one check and taken away
 * again, at every turn with a trick to beat (the hand long or short): a trick of 20 cards (an airplane of
 * five triples with wings) and every other seat's last play of 20. The middle cards stay in full view above
 * the controls (on a small phone a wrapped trick pushed them under).
 */
async function assertLongestPlays(page) {
  await page.evaluate(() => {
    const trick = document.querySelector('[data-testid=trick]');
    const rows = [trick.querySelector('.trick-cards'), ...document.querySelectorAll('.seat:not(.me) .played .mini-cards')];
    window.__longest = [trick, ...rows].map((el) => [el, el.children.length, el.style.getPropertyValue('--n')]);
    for (const row of rows) while (row.children.length < 20) row.append(row.lastElementChild.cloneNode(true));
    for (const el of [trick, ...rows]) el.style.setProperty('--n', '20');
  });
  await assertLayout(page, 'the longest plays');
  await page.evaluate(() => {
    for (const [el, children, n] of window.__longest) {
      if (el.matches('.mini-cards, .trick-cards')) while (el.children.length > children) el.lastElementChild.remove();
      if (n) el.style.setProperty('--n', n);
      else el.style.removeProperty('--n');
    }
  });
}

/** One turn to play: Hint, then Play what it chose (or Pass), by keyboard or by touch or mouse. */
async function playTurn(page, byKeyboard) {
  const before = (await handCards(page)).length;
  if (byKeyboard) await page.keyboard.press('h');
  else await tap(page, button(page, 'Hint'));
  const play = button(page, 'Play').and(page.locator(':enabled'));
  const none = page.getByRole('status').filter({ hasText: 'Nothing in your hand beats it' });
  await play.or(none).waitFor({ timeout: 20_000 });
  const playing = await play.isVisible();
  if (byKeyboard) await page.keyboard.press(playing ? 'Enter' : ' ');
  else await tap(page, button(page, playing ? 'Play' : 'Pass'));
  if (playing) {
    // The hand shrinking is the proof; the turn may already be back (the bots are quick).
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=hand] .card').length < n,
      before,
      { timeout: 20_000 },
    );
  } else {
    await button(page, 'Hint').waitFor({ state: 'hidden', timeout: 20_000 });
  }
}

describe('every screen', { concurrency: 3 }, () => {
  for (const screen of SCREENS) {
    const size = `${screen.width}x${screen.height}`;
    test(`home and a landlord's deal at ${size}`, { timeout: 400_000 }, async () => {
      const page = await newPage(screen);
      await page.goto(BASE);
      await page.getByTestId('play-bots').waitFor();
      await assertLayout(page, 'home');
      await assertAxe(page, 'home');

      // The first tap on Play vs 2 Bots asks the name once (Enter in the dialog plays); it is remembered for
      // the next time.
      const name = uniqueName('Screen');
      // Hard bots: the worst case below is measured with their names ("Bot Hard 2"). With a longer level's
      // ("Bot Normal 2"), a small phone's six-line explanation wraps and covers the left seat's hand: a
      // known gap (docs/client.md).
      await page.getByTestId('bot-level').selectOption('hard');
      for (let attempt = 1; ; attempt++) {
        assert.ok(attempt <= 12, 'the player becomes the landlord within 12 tables');
        await tap(page, page.getByTestId('play-bots'));
        if (attempt === 1) {
          await page.getByTestId('name-dialog').getByTestId('name').fill(name);
          await assertLayout(page, 'the name dialog');
          await page.getByTestId('name-dialog').getByTestId('name').press('Enter');
        }
        await page.waitForURL(/\?room=/);
        await page.locator('[data-testid=hand] .card').nth(16).waitFor();
        if (await auction(page)) break;
        // A bot is the landlord: Home offers the way back to this table; a new table is one tap away.
        const code = await page.getByTestId('room-code').innerText();
        await tap(page, page.getByRole('button', { name: 'Home' }));
        await page.getByTestId('back-to-table').filter({ hasText: code }).waitFor();
        assert.equal(await page.getByTestId('card-name').innerText(), name);
      }

      await button(page, 'Seen').waitFor();
      await assertLayout(page, 'the reveal');
      await tapButton(page, 'Seen');
      let turns = 0;
      let longestChecked = 0;
      const deadline = Date.now() + 300_000;
      while (!(await page.getByTestId('result').isVisible())) {
        assert.ok(Date.now() < deadline, 'the deal ends in time');
        const { buttons } = await probe(page);
        if (buttons.includes('Seen')) await tapButton(page, 'Seen');
        else if (buttons.includes('Hint')) {
          await assertLayout(page, `turn ${turns + 1}`);
          await assertTens(page);
          if (turns === 0) {
            await firstTurn(page);
            await shot(page, `screen-${size}`);
          }
          if (await page.getByTestId('trick').isVisible()) {
            await assertLongestPlays(page);
            longestChecked += 1;
          }
          await playTurn(page, turns % 2 === 0);
          turns += 1;
        } else await sleep(100);
      }

      assert.ok(longestChecked > 0, 'a bot answered one of the landlord\'s plays, so the longest plays were checked');
      await page.waitForTimeout(300); // the result's first frame
      // Every hand face up by its seat (the layout check says they fit, uncut), and the amount explained.
      await assertHandsFaceUp(page);
      assert.ok((await page.getByTestId('score-lines').locator('li').count()) >= 2, 'the ante and the pot, at least');
      await assertLayout(page, 'the result');
      await assertAxe(page, 'the result');
      assert.equal(await page.getByTestId('pot').count(), 0, 'the pot chip goes when the deal ends');
      await shot(page, `screen-${size}-result`);
      // Five lines with the longest in the middle (a deal of two bombs and a rocket gave it): on a phone held
      // sideways the explanation takes two columns, and no line may be split between them.
      const dealsLines = await page.evaluate(() => {
        const lines = document.querySelector('[data-testid=score-lines]');
        const before = lines.innerHTML;
        const longest = [...lines.children].reduce((a, b) => (b.textContent.length > a.textContent.length ? b : a));
        while (lines.children.length < 5) lines.append(lines.lastElementChild.cloneNode(true));
        while (lines.children.length > 5) lines.lastElementChild.remove();
        lines.children[2].textContent = longest.textContent;
        return before;
      });
      await assertLayout(page, 'five lines, the longest in the middle');
      await page.evaluate((before) => {
        document.querySelector('[data-testid=score-lines]').innerHTML = before;
      }, dealsLines);
      // The longest end this deal's cards may not have given: an explanation of six lines (several bombs and
      // a spring) and the left seat showing both its last play and a hand, built from the page's own.
      await page.evaluate(() => {
        const lines = document.querySelector('[data-testid=score-lines]');
        while (lines.children.length < 6) lines.append(lines.lastElementChild.cloneNode(true));
        const left = document.querySelector('.seat.left');
        const hand = document.querySelector('.hand-end');
        if (!left.querySelector('.hand-end') && hand) left.append(hand.cloneNode(true));
        const played = document.querySelector('.played');
        if (!left.querySelector('.played') && played) left.insertBefore(played.cloneNode(true), left.querySelector('.hand-end'));
      });
      await assertLayout(page, 'the longest result');

      // Home and back to the same table, then the next deal.
      const code = await page.getByTestId('room-code').innerText();
      await tap(page, page.getByRole('button', { name: 'Home' }));
      await tap(page, page.getByTestId('back-to-table'));
      assert.equal(await page.getByTestId('room-code').innerText(), code);
      await page.getByTestId('result').waitFor();
      await tap(page, button(page, 'Deal next hand'));
      await page.getByTestId('result').waitFor({ state: 'detached' });
      await page.locator('[data-testid=hand] .card').nth(16).waitFor();
      await page.context().close();
    });
  }
});

// Two Player on a phone: the host fills the empty seat with a bot from the waiting room, and the deal plays
// through with every screen checked: the face-down bottom cards in the auction in full view (the controls
// covered them on a phone held sideways), a one-row top bar, and at the end every line of the amount
// explained in view (the result showed 3 of 5).
describe('Two Player on every phone', { concurrency: 3 }, () => {
  for (const screen of [SMALL_PHONE, PORTRAIT, PHONE]) {
    const size = `${screen.width}x${screen.height}`;
    test(`a Two Player deal against a bot at ${size}`, { timeout: 300_000 }, async () => {
      const [host] = await inviteRoom('twoplayer', 0, [screen]);
      await assertLayout(host, 'the waiting room');
      await assertAxe(host, 'the waiting room');
      // On a phone the rules wait behind More; the chip says the option is off, not only its name.
      await tap(host, button(host, 'More'));
      assert.match(await host.getByTestId('rules-chip').innerText(), /^Two Player · Wild Rank (on|off)$/);
      await tap(host, button(host, 'More'));
      await host.getByTestId('rules-chip').waitFor({ state: 'hidden' });
      await host.getByLabel('Normal').check();
      await tap(host, host.getByTestId('fill-bots'));
      await tap(host, button(host, 'Deal the first hand'));
      await playDeal([host], { timeout: 240_000 });
      await host.waitForTimeout(300); // the result's first frame
      assert.ok((await host.getByTestId('score-lines').locator('li').count()) >= 2, 'the auction and the share, at least');
      await assertLayout(host, 'the result');
      await assertAxe(host, 'the result');
      await shot(host, `twoplayer-${size}-result`);
      // The longest explanation (robs, bombs, a spring, the allowance, the share) still shows whole.
      await host.evaluate(() => {
        const lines = document.querySelector('[data-testid=score-lines]');
        while (lines.children.length < 6) lines.append(lines.lastElementChild.cloneNode(true));
      });
      await assertLayout(host, 'the longest result');
      const seats = (await publicView(host)).seats;
      assert.equal(seats[1].occupant.level, 'normal');
      await host.context().close();
    });
  }
});

// The boards on a phone held upright: long names wrap, and every column (the date last) stays in the panel.
test('the boards fit a phone held upright', async () => {
  const page = await newPage(PORTRAIT);
  const row = (rank) => ({ rank, name: `AVeryLongPlayerName${rank}xx`, score: 123456, deals: 1234, date: '2026-11-29', protected: false });
  await page.route('**/api/boards/overall', (route) => route.fulfill({ json: { board: 'overall', date: null, rows: [1, 2, 3].map(row) } }));
  await page.goto(`${BASE}/#/boards/overall`);
  await page.getByText('AVeryLongPlayerName3xx').waitFor();
  await assertLayout(page, 'the overall board');
  await assertAxe(page, 'the overall board');
  await page.context().close();
});
