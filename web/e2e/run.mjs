// Browser tests: Chromium (Debian's /usr/bin/chromium) driven by playwright-core against a running
// `ddz serve`. Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/run.mjs
// Screenshots go to docs/screenshots/ (DDZ_SCREENSHOTS overrides). Exits non-zero on a failure.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations } from './layout.mjs';
import {
  BASE,
  SMALL_PHONE,
  PORTRAIT,
  PHONE,
  DESKTOP,
  newPage,
  sleep,
  shot,
  api,
  publicView,
  handCards,
  tapCard,
  selectedCards,
  rankOf,
  ranks,
  uniqueName,
  inviteRoom,
  probe,
  button,
  press,
  hintAndPlay,
  playDeal,
  resultText,
  assertHandsFaceUp,
  asPlayer,
  useBrowser,
} from './harness.mjs';

useBrowser();

// First and alone, so that its first-render figure is not slowed by the other tests.
test('home renders quickly; the Chinese UI renders; the sound setting is remembered', async () => {
  const page = await newPage();
  await page.goto(BASE);
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).waitFor();
  const timing = await page.evaluate(() => {
    const mark = performance.getEntriesByName('ddz-first-render')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { firstRender: mark?.startTime, fcp: fcp?.startTime };
  });
  assert.ok(timing.firstRender > 0, 'the app marks its first render');
  const icon = await fetch(await page.evaluate(() => document.querySelector('link[rel=icon]').href));
  assert.equal(icon.headers.get('content-type'), 'image/svg+xml', 'the favicon is an SVG');
  console.log(`FIRST_RENDER_MS ${timing.firstRender.toFixed(0)} FCP_MS ${timing.fcp?.toFixed(0) ?? 'n/a'}`);
  await shot(page, 'home');

  // The shell's menu holds the settings and the language.
  await page.getByRole('button', { name: 'Settings' }).click();
  const menu = page.getByTestId('menu');
  const sound = menu.getByLabel(/Sound:/);
  assert.equal(await sound.isChecked(), true, 'sound is on by default');
  await sound.uncheck();

  await menu.getByRole('button', { name: '简体中文' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '对战两个机器人' }).waitFor();
  assert.equal(await page.locator('h1').innerText().then((s) => s.includes('斗地主')), true);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await shot(page, 'home-zh');
  // Both choices are remembered.
  await page.reload();
  await page.getByRole('button', { name: '对战两个机器人' }).waitFor();
  await page.getByRole('button', { name: '设置' }).click();
  assert.equal(await menu.getByLabel(/声音/).isChecked(), false);
  await menu.getByRole('button', { name: 'English' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).waitFor();
  await page.context().close();
});

// The other tests run concurrently (each in its own rooms and browser contexts).
describe('the web client', { concurrency: 4 }, () => {
  test('the lobby lists a public table live', async () => {
    const page = await newPage();
    await page.goto(BASE);
    await page.getByRole('heading', { name: 'Public tables' }).waitFor();
    const { code } = await api('/api/rooms', { name: uniqueName('Lobbyist'), table: 'house', public: true });
    const row = page.locator('.lobby li', { hasText: code });
    await row.waitFor();
    // A row in words: the table type and option, who sits, the free seats, and whether a deal is on.
    assert.match(await row.innerText(), new RegExp(`^${code}\\s+House · Wild on\\s+Lobbyist\\d+ · 2 seats free\\s+Waiting\\s+Watch\\s+Sit$`));
    assert.equal(await row.getByRole('button', { name: 'Sit' }).isEnabled(), true);
    // Its Watch link reads well on the felt (the browser's blue was 1.36:1).
    assert.deepEqual(await axeViolations(page), []);
    await row.scrollIntoViewIfNeeded();
    await shot(page, 'lobby');
    await page.context().close();
  });

  test('the host of a public table fills its empty seats with Normal bots and deals', async () => {
    const host = await newPage();
    await asPlayer(host, uniqueName('Opener'));
    await host.getByRole('button', { name: 'Open a public table' }).click();
    await host.getByTestId('invite').waitFor();
    await host.getByLabel('Normal').check();
    await host.getByText('Normal: plans its hand and keeps control.').waitFor();
    await host.getByTestId('fill-bots').click();
    await host.getByRole('button', { name: 'Deal the first hand' }).click();
    await host.locator('[data-testid=hand] .card').nth(16).waitFor();
    const room = await publicView(host);
    assert.equal(room.mode, 'public');
    assert.notEqual(room.deal, null, 'the deal began');
    assert.deepEqual(
      room.seats.slice(1).map((s) => [s.occupant.type, s.occupant.level]),
      [
        ['bot', 'normal'],
        ['bot', 'normal'],
      ],
    );
    await host.context().close();
  });

  test('an invite link asks only for a name and seats the guest; on a phone a touch slide selects', async () => {
    const [host, guest] = await inviteRoom('house', 1, [undefined, PHONE]);
    await host.locator('.seat .name', { hasText: 'Guest' }).waitFor();
    await host.getByRole('button', { name: 'Add bot' }).click();
    await host.getByRole('button', { name: 'Deal the first hand' }).click();
    await guest.locator('[data-testid=hand] .card').nth(16).waitFor();
    // Phone landscape: the whole hand fits on the screen.
    const boxes = await guest.locator('[data-testid=hand] .card').evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect().toJSON()),
    );
    for (const b of boxes) assert.ok(b.left >= 0 && b.right <= PHONE.width && b.bottom <= PHONE.height + 1, JSON.stringify(b));
    // A finger pressed on the third card and slid to the seventh selects those five.
    const hand = await handCards(guest);
    const [from, to] = [boxes[2], boxes[6]].map((b) => ({ x: b.left + b.width * 0.2, y: b.top + b.height * 0.6 }));
    const cdp = await guest.context().newCDPSession(guest);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (let k = 1; k <= 8; k++) {
      const x = from.x + ((to.x - from.x) * k) / 8;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from.y }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    assert.deepEqual((await selectedCards(guest)).sort(), hand.slice(2, 7).sort());
    await host.context().close();
    await guest.context().close();
  });

  test('a full House deal against two bots, with a reload mid-deal', { timeout: 240_000 }, async (t) => {
    const page = await newPage();
    await asPlayer(page, uniqueName('Tester'));
    await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
    await page.locator('[data-testid=hand] .card').nth(16).waitFor();
    assert.match(page.url(), /\?room=[A-Z0-9]+/);
    const jokers = await page.locator('[data-testid=hand] .card[data-card$=J]').evaluateAll((els) =>
      els.map((e) => e.querySelector('.sr-only').textContent.trim()),
    );
    for (const label of jokers) assert.match(label, /^(Black|Red) Joker$/);

    let reloaded = false;
    let counted = false;
    let triedBadSelection = false;
    let shots = new Set();
    let plays = 0;
    const deadline = Date.now() + 200_000;
    const result = page.getByTestId('result');
    while (!(await result.isVisible())) {
      assert.ok(Date.now() < deadline, 'the deal ends within the time allowed');
      const { buttons } = await probe(page);
      if (buttons.includes('Take the middle cards')) {
        if (!shots.has('auction')) await shot(page, 'table-auction');
        shots.add('auction');
        await press(page, 'Take the middle cards');
      } else if (buttons.includes('Seen')) {
        await press(page, 'Seen');
      } else if (buttons.includes('Hint')) {
        if (!reloaded) {
          // Reload at the first turn in trick play: the same name rejoins and gets the same hand back.
          const before = await handCards(page);
          await page.reload();
          await page.locator('.nameplate .name', { hasText: '(you)' }).waitFor();
          await page.locator('[data-testid=hand] .card').first().waitFor();
          assert.deepEqual(await handCards(page), before, 'the hand after a reload is the hand before it');
          reloaded = true;
          continue;
        }
        // Once cards are on the table (someone led, or this player's first turn is behind).
        if (!counted && (plays > 0 || (await page.getByTestId('trick').isVisible()))) {
          await t.test('the card counter matches public information', () => checkCounter(page));
          counted = true;
        }
        const pass = button(page, 'Pass');
        if (!triedBadSelection && (await pass.isDisabled())) {
          triedBadSelection = await badSelectionThenSingle(page);
          if (triedBadSelection) {
            plays += 1;
            continue;
          }
        }
        if (!shots.has('trick') && (await page.getByTestId('trick').isVisible())) {
          await shot(page, 'table-trick');
          shots.add('trick');
        }
        await hintAndPlay(page);
        plays += 1;
      } else {
        await sleep(150);
      }
    }
    assert.ok(reloaded, 'the reload check ran');
    assert.ok(counted, 'the counter check ran');
    console.log(`deal done: ${plays} turns, bad selection tried: ${triedBadSelection}`);
    assert.match(await result.innerText(), /The (landlord wins|farmers win)!/);
    await t.test('the deal told: hands face up, the amount explained, the log', async () => {
      await assertHandsFaceUp(page);
      const lines = await page.getByTestId('score-lines').locator('li').allInnerTexts();
      assert.match(lines[0], /^Ante: landlord \$2, each tenant \$1$/);
      assert.match(lines.at(-1), /^(.+ took the \$\d+ pot|.+ and .+ split the \$\d+ pot: .+)$/);
      await page.locator('.log summary').click();
      const log = await page.getByTestId('deal-log').locator('li').allInnerTexts();
      assert.ok(log.some((l) => / took the middle cards$/.test(l)), log.join('\n'));
      assert.ok(log.some((l) => / is the landlord$/.test(l)));
      assert.ok(log.some((l) => /^.+: (single|pair|triple|straight|four|bomb|rocket|triple run|pair run)/.test(l)), 'a play with its reading');
      assert.ok(log.includes(await result.locator('h2').innerText()), 'the result');
      assert.ok(log.includes(lines[0]), 'the score lines');
      await page.locator('.log summary').click();
    });
    await shot(page, 'deal-end');
    assert.ok((await page.evaluate(() => window.__tones)) > 0, 'the client beeps (sound is on by default)');
    await page.context().close();
  });

  test('three browser contexts play an invite-room House deal together to the end', { timeout: 200_000 }, async (t) => {
    const pages = await inviteRoom('house', 2, [undefined, SMALL_PHONE, PHONE]);
    const [host, , phone] = pages;
    await host.getByRole('button', { name: 'Deal the first hand' }).click();
    let phoneShot = false;
    await playDeal(pages, {
      async onPlay(page) {
        // The phone in landscape, mid-trick: the hand and the prompt fit on its screen.
        if (page !== phone || phoneShot || !(await page.getByTestId('trick').isVisible())) return false;
        for (const b of await page.locator('[data-testid=hand] .card, .controls .prompt > button:not(.keyboard)').evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect().toJSON()),
        ))
          assert.ok(b.left >= 0 && b.right <= PHONE.width && b.top >= 0 && b.bottom <= PHONE.height + 1, JSON.stringify(b));
        await shot(page, 'table-phone');
        phoneShot = true;
        return false;
      },
    });
    const results = await Promise.all(pages.map(resultText));
    assert.match(results[0].join(), /The (landlord wins|farmers win)!/);
    for (const r of results) assert.deepEqual(r, results[0], 'every seat sees the same result');

    await t.test('the host closes the room and every seated player sees the same settlement', async () => {
      await host.getByTestId('result').getByRole('button', { name: 'Close room' }).click();
      const lines = [];
      for (const page of pages) {
        const settlement = page.getByTestId('settlement');
        await settlement.waitFor();
        lines.push(await settlement.locator('li').allInnerTexts());
      }
      // After one deal somebody is up: the shortest payments are not empty.
      assert.ok(lines[0].length > 0, 'someone pays');
      for (const l of lines[0]) assert.match(l, /^\S+ pays \S+ \$\d+$/);
      for (const l of lines) assert.deepEqual(l, lines[0], 'the same settlement on every page');
      await shot(host, 'settlement');
    });
    for (const page of pages) await page.context().close();
  });

  test('a Wild play with two readings shows pills and plays the chosen one', { timeout: 120_000 }, async () => {
    const pages = await inviteRoom('house', 2);
    await pages[0].getByRole('button', { name: 'Deal the first hand' }).click();
    await Promise.all(pages.map((p) => p.locator('[data-testid=hand] .card').nth(16).waitFor()));
    // Whoever holds the Wild takes the middle cards (if it is among them, the first to choose takes).
    const hands = await Promise.all(pages.map(handCards));
    const holder = pages[hands.findIndex((h) => h.includes('W'))];
    const landlord = await playDeal(pages, {
      auction: (page, buttons) => (!holder || page === holder || !buttons.includes('Pass') ? 'Take the middle cards' : 'Pass'),
      onPlay: async () => 'stop',
    });
    await wildLead(landlord, pages);
  });

  test('a No Shuffle deal with bidding, played through the UI', { timeout: 200_000 }, async () => {
    const pages = await inviteRoom('noshuffle', 2, [PORTRAIT, PHONE, DESKTOP]);
    await pages[0].getByRole('button', { name: 'Deal the first hand' }).click();
    let shotTaken = false;
    // Each bids the lowest bid left: 1, 2, 3 in turn.
    await playDeal(pages, {
      async onPlay(page) {
        if (shotTaken) return false;
        const deal = (await publicView(page)).deal;
        assert.deepEqual(
          deal.actions.filter((a) => a.action === 'bid').map((a) => a.bid),
          [1, 2, 3],
        );
        assert.equal(deal.auction_value, 3);
        await page.getByTestId('deal-score').filter({ hasText: 'Deal score 3 pts (auction 3 × multiplier 1, 0 bombs)' }).waitFor();
        assert.equal(await page.locator('.chip', { hasText: /^Allowance/ }).count(), 0);
        // The five-minute deal limit counts down beside the turn clock.
        assert.match(await page.getByTestId('deal-clock').innerText(), /^Deal [0-5]:[0-5]\d$/);
        await shot(page, 'noshuffle');
        shotTaken = true;
        return false;
      },
    });
    assert.ok(shotTaken);
    const results = await Promise.all(pages.map(resultText));
    for (const r of results) assert.deepEqual(r, results[0]);
    const lines = await pages[0].getByTestId('score-lines').locator('li').allInnerTexts();
    assert.equal(lines[0], 'Bid: 3');
    assert.match(lines.at(-1), /^One share = 3 × \d+ = \d+ points; the landlord (wins|loses) 2 shares$/);
    await assertHandsFaceUp(pages[0]);
    for (const page of pages) await page.context().close();
  });

  test('a Two Player deal with a rob, played through the UI', { timeout: 200_000 }, async () => {
    const pages = await inviteRoom('twoplayer', 1, [SMALL_PHONE, PORTRAIT]);
    await pages[0].getByRole('button', { name: 'Deal the first hand' }).click();
    await Promise.all(pages.map((p) => p.locator('[data-testid=hand] .card').nth(16).waitFor()));
    let robbed = null;
    let shotTaken = false;
    await playDeal(pages, {
      // The first to choose calls, the other robs, and the caller does not rob back.
      auction(page, buttons) {
        if (buttons.includes('Call landlord')) return 'Call landlord';
        if (buttons.includes('Rob') && !robbed) {
          robbed = page;
          return 'Rob';
        }
        return "Don't rob";
      },
      async onPlay(page) {
        if (shotTaken) return false;
        const deal = (await publicView(page)).deal;
        assert.equal(deal.auction.robs, 1);
        assert.equal(deal.landlord, await robbed.evaluate(() => Number(document.querySelector('.seat.me').dataset.seat)));
        await page.getByTestId('deal-score').filter({ hasText: 'Deal score 2 pts (auction 2 × ' }).waitFor();
        // The allowance is 1 card plus 1 per rob.
        // On a phone it waits behind the top bar's More.
        await page.getByTestId('allowance').filter({ hasText: 'Allowance 2' }).waitFor({ state: 'attached' });
        await shot(page, 'twoplayer');
        shotTaken = true;
        return false;
      },
    });
    assert.ok(robbed && shotTaken);
    const results = await Promise.all(pages.map(resultText));
    assert.deepEqual(results[1], results[0]);
    // One farmer: never "the farmers"; at the allowance the lines say why.
    assert.doesNotMatch(results[0].join(), /farmers win/);
    const lines = await pages[0].getByTestId('score-lines').locator('li').allInnerTexts();
    assert.equal(lines[0], '1 rob: ×2');
    assert.match(lines.at(-1), /^One share = 2 × \d+ = \d+ points; the landlord (wins|loses) 1 share$/);
    if ((await publicView(pages[0])).deal.result.end === 'allowance')
      assert.ok(lines.some((l) => /^.+ reached the allowance \(2 cards\)$/.test(l)), lines.join('\n'));
    for (const page of pages) await page.context().close();
  });

  test('auto-play: the badge for the table, the bot plays to the end; the end in Chinese', { timeout: 200_000 }, async () => {
    // The auction explains the landlord choice: the stakes and the middle cards face down. A bot
    // seated before this player may take before the page first shows the deal; then sit at a new table.
    let page, name;
    for (let table = 1; ; table++) {
      page = await newPage(PORTRAIT);
      name = uniqueName('Auto');
      await asPlayer(page, name);
      await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
      await page.locator('[data-testid=hand] .card').nth(16).waitFor();
      const stakes = page.getByTestId('auction-info').filter({ hasText: 'Stakes: whoever takes the middle cards antes $2' });
      if (await stakes.waitFor({ timeout: 5_000 }).then(() => true, () => false)) break;
      assert.notEqual((await publicView(page)).deal.phase, 'auction', 'an auction under way shows its stakes');
      assert.ok(table < 8, 'at eight tables in a row a bot took before the page showed the auction');
      await page.context().close();
    }
    // Read in one go: a quick bot may end the auction (and the panel) at any moment.
    const faceDown = await page.evaluate(() => document.querySelector('[data-testid=auction-info]')?.querySelectorAll('.card.back').length);
    if (faceDown !== undefined) assert.equal(faceDown, 4, 'the four middle cards lie face down');
    const me = await page.evaluate(() => Number(document.querySelector('.seat.me').dataset.seat));
    const toggle = page.getByTestId('auto-play');
    await toggle.click();
    await page.getByTestId(`auto-play-${me}`).filter({ hasText: 'bot playing' }).waitFor();
    assert.equal(await toggle.innerText(), 'Play myself');
    await toggle.click();
    await page.getByTestId(`auto-play-${me}`).waitFor({ state: 'detached' });
    await toggle.click();
    await page.getByTestId('result').waitFor({ timeout: 150_000 });
    const log = await page.locator('.log').textContent();
    assert.match(log, new RegExp(`${name} let the bot play their turns`));
    assert.match(log, new RegExp(`${name} plays their own turns again`));
    await assertHandsFaceUp(page);
    // The same end in Chinese: the outcome, the amount explained, the deal's log.
    await page.evaluate(() => localStorage.setItem('ddz.lang', 'zh'));
    await page.reload();
    await page.getByTestId('result').filter({ hasText: /地主赢了！|农民赢了！/ }).waitFor();
    const lines = await page.getByTestId('score-lines').locator('li').allInnerTexts();
    assert.match(lines[0], /^底注：地主 \$2，每位农民 \$1$/);
    assert.match(lines.at(-1), /赢得奖池|平分奖池/);
    assert.match(await page.getByTestId('deal-log').textContent(), /拿了底牌/);
    await shot(page, 'deal-end-zh');
    await page.context().close();
  });

  test('the rules chip switches Wild Rank for the next deal at a No Shuffle room', { timeout: 60_000 }, async () => {
    const [host] = await inviteRoom('noshuffle', 0);
    const chip = host.getByTestId('rules-chip');
    const before = await chip.innerText();
    const on = before.endsWith('Wild Rank on');
    assert.match(before, /^No Shuffle · Wild Rank (on|off)$/);
    await chip.click();
    await chip.filter({ hasText: `No Shuffle · Wild Rank ${on ? 'off' : 'on'}` }).waitFor();
    assert.match(await host.locator('.log').textContent(), new RegExp(`Host\\d+ turned Wild Rank ${on ? 'off' : 'on'} for the next deal`));
    assert.deepEqual((await publicView(host)).rules, { table: 'no_shuffle', wild: false, wild_rank: !on });
    await host.context().close();
  });

  test('slide-select with the mouse, and keyboard play (with the sound off)', { timeout: 120_000 }, async () => {
    const page = await newPage();
    await asPlayer(page, uniqueName('Typist'));
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('menu').getByLabel(/Sound:/).uncheck();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
    const cards = page.locator('[data-testid=hand] .card');
    await cards.nth(16).waitFor();
    const hand = await handCards(page);
    // Each card's visible strip is its left part; the next card covers the rest.
    const at = async (i) => {
      const b = await cards.nth(i).boundingBox();
      return [b.x + b.width * 0.2, b.y + b.height * 0.6];
    };
    await page.mouse.move(...(await at(1)));
    await page.mouse.down();
    for (const i of [2, 3, 4, 5]) await page.mouse.move(...(await at(i)), { steps: 3 });
    await page.mouse.up();
    assert.deepEqual((await selectedCards(page)).sort(), hand.slice(1, 6).sort(), 'a slide selects the cards it crosses');
    // A slide that starts on a selected card unselects.
    await page.mouse.move(...(await at(5)));
    await page.mouse.down();
    await page.mouse.move(...(await at(3)), { steps: 4 });
    await page.mouse.up();
    assert.deepEqual((await selectedCards(page)).sort(), hand.slice(1, 3).sort());
    await page.keyboard.press('Escape');
    assert.deepEqual(await selectedCards(page), []);

    // Keyboard: H hints; the hinted cards typed as ranks select the same ranks; Enter plays them.
    const deadline = Date.now() + 90_000;
    for (;;) {
      assert.ok(Date.now() < deadline, 'a turn to play comes');
      const { buttons, over } = await probe(page);
      // A farmer who never had a play to make before the bots finished deals the next hand and goes on.
      if (over) {
        await button(page, 'Deal next hand').click({ timeout: 5000 }).catch(() => {});
        await page.getByTestId('result').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
      }
      else if (buttons.includes('Take the middle cards')) await press(page, 'Take the middle cards');
      else if (buttons.includes('Seen')) await press(page, 'Seen');
      else if (buttons.includes('Hint')) {
        await page.keyboard.press('h');
        const hinted = await page
          .waitForFunction(() => document.querySelectorAll('[data-testid=hand] [aria-pressed=true]').length > 0, null, {
            timeout: 3000,
          })
          .then(() => selectedCards(page))
          .catch(() => []);
        if (hinted.length === 0) {
          await page.keyboard.press(' ');
          await button(page, 'Hint').waitFor({ state: 'hidden' });
          continue;
        }
        await page.keyboard.press('Escape');
        assert.deepEqual(await selectedCards(page), []);
        const keys = hinted.map((c) => ({ T: '10', BJ: 'b', RJ: 'r', W: 'w' })[rankOf(c)] ?? rankOf(c)).join('');
        await page.keyboard.type(keys);
        assert.equal(ranks(await selectedCards(page)), ranks(hinted), `typing ${keys} selects those ranks`);
        await button(page, 'Play').and(page.locator(':enabled')).waitFor();
        const before = (await handCards(page)).length;
        await page.keyboard.press('Enter');
        await page.waitForFunction(
          (n) => document.querySelectorAll('[data-testid=hand] .card').length === n,
          before - hinted.length,
        );
        const seat = await page.locator('.seat.me').getAttribute('data-seat');
        const view = (await publicView(page)).deal;
        const last = view.actions.filter((a) => a.action === 'play').at(-1);
        assert.equal(String(last.seat), seat);
        assert.equal(ranks(last.cards), ranks(hinted), 'Enter played the typed cards');
        break;
      } else await sleep(150);
    }
    assert.equal(await page.evaluate(() => window.__tones), 0, 'no sound when it is off');
    await page.context().close();
  });
});

/** A free lead: a selection that is no play says why; one card of it then plays. False when the hand has no such pair. */
async function badSelectionThenSingle(page) {
  const hand = await handCards(page);
  const plain = [...new Set(hand.filter((c) => c.length === 2 && !c.endsWith('J')).map((c) => c[0]))];
  if (plain.length < 2) return false;
  const low = hand.filter((c) => c[0] === plain.at(-1))[0];
  const next = hand.filter((c) => c[0] === plain.at(-2))[0];
  if (!('3456789TJQKA'.indexOf(next[0]) - '3456789TJQKA'.indexOf(low[0]) >= 2 || next[0] === '2')) return false;
  const play = button(page, 'Play');
  await tapCard(page, low);
  await tapCard(page, next);
  await page.getByRole('status').filter({ hasText: 'Those cards are not a play.' }).waitFor({ timeout: 5000 });
  assert.ok(await play.isDisabled());
  await tapCard(page, next);
  await play.and(page.locator(':enabled')).waitFor({ timeout: 5000 });
  await press(page, 'Play');
  return true;
}

/** The counter shows, for each rank, the deck minus this hand minus the cards played and revealed. */
async function checkCounter(page) {
  const view = (await publicView(page)).deal;
  const hand = await handCards(page);
  const deck = [...'3456789TJQKA2'].flatMap((r) => [...'SHDC'].map((s) => r + s)).concat(['BJ', 'RJ', 'W']);
  assert.equal(view.rules, 'house');
  const played = view.actions.filter((a) => a.action === 'play').flatMap((a) => a.cards);
  assert.ok(played.length > 0, 'cards have been played');
  const known = new Set([...hand, ...played, ...view.bottom]);
  const expected = {};
  for (const card of deck) expected[rankOf(card)] = (expected[rankOf(card)] ?? 0) + (known.has(card) ? 0 : 1);
  const shown = Object.fromEntries(
    await page
      .locator('[data-testid=counter] li')
      .evaluateAll((els) => els.map((e) => [e.dataset.rank, Number(e.dataset.count)])),
  );
  assert.deepEqual(shown, expected);
  const total = Object.values(shown).reduce((a, b) => a + b, 0);
  assert.equal(total, 55 - known.size);
}

/** The server's English reading as the client words it: its ranks as the cards show them (`10`, not `T`). */
const asShown = (text) => text.replace(/\bT(?=s?\b)/g, '10');

/** The landlord leads a selection with two readings, picks the second pill and plays it. */
async function wildLead(page, pages) {
  const hand = await handCards(page);
  assert.ok(hand.includes('W'), 'the landlord holds the Wild');
  const byRank = {};
  for (const c of hand) if (c !== 'W' && !c.endsWith('J')) (byRank[c[0]] ??= []).push(c);
  const groups = Object.values(byRank);
  const candidates = [];
  const pairs = groups.filter((g) => g.length >= 2);
  for (let i = 0; i < pairs.length; i++)
    for (let j = i + 1; j < pairs.length; j++) candidates.push(['W', ...pairs[i].slice(0, 2), ...pairs[j].slice(0, 2)]);
  for (const g of groups.filter((g) => g.length === 3)) candidates.push(['W', ...g]);
  // The Wild with four consecutive singles: the straight below or above them.
  const order = '3456789TJQKA2';
  for (let i = 0; i + 4 <= order.length; i++) {
    const run = [...order.slice(i, i + 4)].map((r) => byRank[r]?.[0]);
    if (run.every(Boolean)) candidates.push(['W', ...run]);
  }
  let cards;
  let readings;
  for (const c of candidates) {
    const answer = await api('/api/readings', { rules: 'house', wild_rank: null, hand, cards: c, prior: null });
    if (answer.readings.length >= 2) {
      [cards, readings] = [c, answer.readings];
      break;
    }
  }
  assert.ok(cards, `a selection with two readings in ${hand.join(' ')}`);
  // The page offers the natural reading first: the fewest wild cards standing in, then the highest.
  const wilds = (r) => (r.wild_as ?? '').replace(/[\s,]/g, '').length;
  const height = (r) => '3456789TJQKA2'.indexOf(r.main);
  readings = [...readings].sort((a, b) => wilds(a) - wilds(b) || height(b) - height(a) || b.length - a.length);
  for (const c of cards) await tapCard(page, c);
  const pills = page.getByRole('radio');
  await pills.nth(readings.length - 1).waitFor();
  assert.deepEqual(await pills.allInnerTexts(), readings.map((r) => asShown(r.text)));
  assert.equal(await pills.nth(0).getAttribute('aria-checked'), 'true');
  await pills.nth(1).click();
  assert.equal(await pills.nth(1).getAttribute('aria-checked'), 'true');
  await page.waitForTimeout(200); // the pill's colour transition
  await shot(page, 'wild-pills');
  await press(page, 'Play');
  for (const p of pages) await p.getByTestId('trick-reading').filter({ hasText: asShown(readings[1].text) }).waitFor();
  const last = (await publicView(page)).deal.trick;
  assert.equal(last.play.text, readings[1].text, 'the server took the chosen reading');
  assert.equal(ranks(last.cards), ranks(cards));
  for (const p of pages) await p.context().close();
}
