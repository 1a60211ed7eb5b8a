// The engine in the page and a network cut, in Chromium: against two quick bots, every selection, Hint and
// Play are answered in the page (no request to /api/readings or /api/hints is made: they are refused here),
// Play enables in the frame of a tap; then at a turn to play the network is cut (`setOffline`): the table
// says so plainly and keeps its state, Hint and the selection still work, Play is held, and when the network
// is back the table reconnects by itself and the held play goes. The deal then plays to its end. And the
// banner in Chinese. Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/offline.mjs (a server with quick
// bots: --bot-delay-ms 100 --bot-delay-span-ms 100).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asPlayer, button, handCards, newPage, playDeal, publicView, selectedCards, uniqueName, useBrowser } from './harness.mjs';

useBrowser();

/** A page that refuses the readings and hints endpoints and counts what asked for them. */
async function pageWithoutRulesRequests() {
  const page = await newPage();
  const asked = [];
  await page.route(/\/api\/(readings|hints)$/, (route) => {
    asked.push(route.request().url());
    return route.abort();
  });
  return { page, asked };
}

async function startBotTable(page) {
  await asPlayer(page, uniqueName('Offline'));
  await page.getByRole('button', { name: /^(Play vs 2 Bots|对战两个机器人)$/ }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
}

/** Presses Hint in the page and counts the animation frames until Play is enabled (`enabled` false when it
 * stays off for a second: nothing beats the trick). */
function hintToPlayFrames(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const buttons = [...document.querySelectorAll('.controls .prompt > button:not(.keyboard)')];
        const find = (name) => buttons.find((b) => b.textContent.trim() === name);
        const started = performance.now();
        let frames = 0;
        find('Hint').click();
        const check = () => {
          if (!find('Play').disabled) return resolve({ enabled: true, frames, ms: performance.now() - started });
          if (frames > 60) return resolve({ enabled: false });
          frames += 1;
          requestAnimationFrame(check);
        };
        check();
      }),
  );
}

/**
 * Unselects the last selected card and taps it again: the time until Play is enabled (a MutationObserver sees
 * it), and whether that was before the next frame was drawn.
 */
function tapToPlayFrames(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const selected = [...document.querySelectorAll('[data-testid=hand] .card[aria-pressed=true]')];
        const card = selected[selected.length - 1];
        const play = [...document.querySelectorAll('.controls .prompt > button:not(.keyboard)')].find((b) => b.textContent.trim() === 'Play');
        card.click();
        requestAnimationFrame(() => {
          let frames = 0;
          const counting = () => {
            frames += 1;
            requestAnimationFrame(counting);
          };
          requestAnimationFrame(counting);
          const observer = new MutationObserver(() => {
            if (play.disabled) return;
            observer.disconnect();
            resolve({ frames, ms: performance.now() - started });
          });
          observer.observe(play, { attributes: true, attributeFilter: ['disabled'] });
          const started = performance.now();
          card.click();
        });
      }),
  );
}

test('a turn plays through a network cut, every answer from the engine in the page', { timeout: 240_000 }, async () => {
  const { page, asked } = await pageWithoutRulesRequests();
  await startBotTable(page);
  let cut = false;
  // A deal may give the player no turn with a play to make (the landlord's bots win at once): then the next.
  for (let deal = 1; !cut; deal++) {
    assert.ok(deal <= 5, 'the player had a turn to play within five deals');
    if (deal > 1) {
      await page.getByRole('button', { name: 'Deal next hand' }).click();
      await page.getByTestId('result').waitFor({ state: 'detached' });
    }
    await playDeal([page], { onPlay: turn });
    await page.getByTestId('result').waitFor();
  }
  async function turn() {
    // Online first: Hint and a tap light Play up within a frame, from the page.
    const hinted = await hintToPlayFrames(page);
    if (!hinted.enabled) return false;
    const tapped = await tapToPlayFrames(page);
    console.log(`Hint to Play enabled: ${hinted.frames} frames, ${hinted.ms.toFixed(1)} ms`);
    console.log(`tap to Play enabled: ${tapped.ms.toFixed(1)} ms, ${tapped.frames} frames drawn meanwhile`);
    assert.ok(hinted.frames <= 1 && tapped.frames === 0, `Play enables within a frame: ${JSON.stringify({ hinted, tapped })}`);
    if (cut) return false;
    cut = true;

    const handBefore = await handCards(page);
    const actionsBefore = (await publicView(page)).deal.actions.length;
    await page.context().setOffline(true);
    const banner = page.getByTestId('connection-lost');
    await banner.waitFor({ timeout: 5000 });
    assert.match(await banner.innerText(), /^Connection lost — reconnecting…/);
    // The table keeps its last state: the hand and the prompt are still there.
    assert.deepEqual(await handCards(page), handBefore);
    // Prepare the turn offline: clear, Hint again (the engine in the page), Play lights up.
    await page.keyboard.press('Escape');
    await button(page, 'Hint').click();
    await button(page, 'Play').and(page.locator(':enabled')).waitFor({ timeout: 1000 });
    const chosen = await selectedCards(page);
    assert.ok(chosen.length > 0, 'Hint selected a play offline');
    // Play while the network is cut: it is held, said, and nothing was sent.
    await button(page, 'Play').click();
    await page.getByText('Your move goes as soon as the table is back.').waitFor({ timeout: 2000 });
    assert.deepEqual((await selectedCards(page)).sort(), [...chosen].sort(), 'the held play stays selected');
    const body = await page.locator('body').innerText();
    assert.ok(!/Failed to fetch|NetworkError|TypeError/.test(body), `no raw browser error: ${body}`);
    await page.waitForTimeout(2000);
    assert.equal((await publicView(page)).deal.actions.length, actionsBefore, 'nothing reached the server offline');

    // The network is back: the table reconnects by itself and the held play goes.
    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=hand] .card').length === n,
      handBefore.length - chosen.length,
      { timeout: 10_000 },
    );
    const deal = (await publicView(page)).deal;
    const mine = deal.actions.slice(actionsBefore).find((a) => a.action === 'play' && a.cards.length === chosen.length);
    assert.ok(mine && [...mine.cards].sort().join() === [...chosen].sort().join(), 'the held play was played');
    return true;
  }
  assert.deepEqual(asked, [], 'no readings or hints were asked of the server');
});

test('the banner speaks Chinese, and goes when the table is back', { timeout: 60_000 }, async () => {
  const { page } = await pageWithoutRulesRequests();
  await page.addInitScript(() => localStorage.setItem('ddz.lang', 'zh'));
  await startBotTable(page);
  await page.context().setOffline(true);
  const banner = page.getByTestId('connection-lost');
  await banner.waitFor({ timeout: 5000 });
  assert.match(await banner.innerText(), /^连接已断开，正在重新连接…/);
  await page.context().setOffline(false);
  await banner.waitFor({ state: 'detached', timeout: 10_000 });
});
