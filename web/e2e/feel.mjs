// The table's feel (issue 39): the motion (the deal, plays travelling to the middle, the trick clearing, the
// bottom cards turned over, the effects) at every screen size, none of it under reduced motion; the sounds and
// spoken calls per event, the turn clock's ticks in its last five seconds, and the sound switch at the table,
// remembered; quick chat: a bubble by the speaker for the other player and a spectator, the rate limit, mute
// remembered. The client writes what it played, said and animated into `window.__sounds`, `__spoken` and
// `__motions`, which the harness's pages define.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/feel.mjs (a server with bots slow enough that each of
// their actions comes in its own state: --bot-delay-ms 300 --bot-delay-span-ms 100).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BASE,
  asPlayer,
  DESKTOP,
  LAPTOP,
  PORTRAIT,
  SCREENS,
  SMALL_PHONE,
  assertLayout,
  hintAndPlay,
  inviteRoom,
  newPage,
  press,
  probe,
  publicView,
  sleep,
  tap,
  uniqueName,
  useBrowser,
} from './harness.mjs';

useBrowser();

const logOf = (page, name) => page.evaluate((n) => window[n], name);

/** Play vs 2 Bots from Home under a new name, until the hand is dealt. */
async function playBots(page) {
  await asPlayer(page, uniqueName('Feel'));
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.waitForURL(/\?room=/);
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
}

/** Answers the prompt (the auction's first offer, Seen, Hint and Play) until `done()` or the deal's result. */
async function playUntil(page, done = async () => false) {
  const deadline = Date.now() + 150_000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'the deal goes on in time');
    const { over, buttons } = await probe(page);
    if (over || (await done())) return;
    if (buttons.includes('Seen')) await press(page, 'Seen');
    else if (buttons.includes('Hint')) await hintAndPlay(page);
    else if (buttons.length > 0)
      await press(
        page,
        buttons.find((b) => b === 'Take the middle cards' || b.startsWith('Bid ') || b === 'Call landlord') ??
          buttons.find((b) => b === "Don't rob") ??
          buttons[0],
      );
    else await sleep(100);
  }
}

/** How many plays this page's seat made in the deal. */
async function myPlays(page) {
  const seat = Number(await page.locator('.seat.me').getAttribute('data-seat'));
  return (await publicView(page)).deal.actions.filter((a) => a.action === 'play' && a.seat === seat).length;
}

/** Waits until no animation runs that ends (the 1- and 2-card warnings pulse for ever). */
const settled = (page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.effect?.getComputedTiming().iterations === Infinity));

describe('motion at every screen', { concurrency: 3 }, () => {
  for (const screen of SCREENS) {
    const size = `${screen.width}x${screen.height}`;
    test(`the deal and a play animate, and settle where the layout holds, at ${size}`, { timeout: 200_000 }, async () => {
      const page = await newPage(screen, { motion: true });
      await playBots(page);
      assert.ok((await logOf(page, '__motions')).includes('deal'), 'the hand is dealt in');
      await playUntil(page, async () => (await myPlays(page)) >= 1);
      await settled(page);
      await assertLayout(page, 'after a play with motion');
      const motions = await logOf(page, '__motions');
      assert.ok(motions.includes('travel'), `a play travels to the middle: ${motions}`);
      assert.ok(motions.includes('turn-over'), `the bottom cards turn over: ${motions}`);
      await page.context().close();
    });
  }
});

test('a whole deal: a sound and a spoken call per event, the effects, the trick clearing', { timeout: 200_000 }, async () => {
  const page = await newPage(LAPTOP, { motion: true });
  await playBots(page);
  await playUntil(page);
  await page.getByTestId('result').waitFor();
  const sounds = await logOf(page, '__sounds');
  for (const kind of ['turn', 'play', 'pass']) assert.ok(sounds.includes(kind), `a ${kind} sound: ${sounds}`);
  assert.ok(sounds.includes('win') || sounds.includes('loss'), `the deal's end is heard: ${sounds}`);
  const spoken = await logOf(page, '__spoken');
  assert.ok(spoken.includes('Pass'), `a pass is called: ${spoken}`);
  const motions = await logOf(page, '__motions');
  assert.ok(motions.includes('clear'), `a finished trick clears: ${motions}`);
  // Each bomb, rocket and airplane of the deal had its sound and its effect (bots act one state at a time).
  const deal = (await publicView(page)).deal;
  for (const { play } of deal.actions.filter((a) => a.action === 'play')) {
    const kind = play.type === 'bomb' || play.type === 'rocket' ? play.type : play.type === 'triples' && play.length > 1 ? 'airplane' : null;
    if (!kind) continue;
    assert.ok(sounds.includes(kind), `the ${kind}'s sound: ${sounds}`);
    assert.ok(motions.includes(kind), `the ${kind}'s effect: ${motions}`);
  }
  if (deal.result.spring) assert.ok(sounds.includes('spring') && motions.includes('spring'), 'the spring is heard and seen');
  await settled(page);
  await assertLayout(page, 'the result with motion');
  await page.context().close();
});

test("the turn clock's last five seconds tick, once a second", { timeout: 150_000 }, async () => {
  const page = await newPage(LAPTOP);
  await playBots(page);
  // The player's first turn (an answer in the auction, or Seen): left to run out, with nothing pressed.
  const deadline = Date.now() + 60_000;
  while ((await probe(page)).buttons.length === 0) {
    assert.ok(Date.now() < deadline, 'a turn comes');
    await sleep(100);
  }
  const ticks = async () => (await logOf(page, '__sounds')).filter((kind) => kind === 'clock').length;
  assert.equal(await ticks(), 0, 'no tick with most of the turn left');
  // 40 s a turn: the ticks start 35 s in; the server plays the turn when it runs out, and the ticks stop.
  await page.waitForFunction(() => window.__sounds.filter((kind) => kind === 'clock').length >= 3, null, { timeout: 60_000 });
  await sleep(6_000);
  const heard = await ticks();
  assert.ok(heard >= 3 && heard <= 5, `one tick a second in the last five: ${heard}`);
  await page.context().close();
});

test('reduced motion: nothing animates; the sound switch and volume at the table, remembered', { timeout: 200_000 }, async () => {
  const page = await newPage(SMALL_PHONE);
  await playBots(page);
  await playUntil(page, async () => (await myPlays(page)) >= 1);
  assert.deepEqual(await logOf(page, '__motions'), [], 'no animation under reduced motion');
  assert.equal(await page.getByTestId('effect').count(), 0);
  assert.ok((await logOf(page, '__sounds')).includes('turn'), 'sounds play without motion');
  await assertLayout(page, 'after a play under reduced motion');

  // The table's sound menu: the volume is remembered, and Sound off silences the table.
  await tap(page, page.getByTestId('sound-button'));
  await page.getByTestId('volume').fill('0.3');
  assert.equal(await page.evaluate(() => localStorage.getItem('ddz.volume')), '0.3');
  await page.getByLabel(/Sound:/).uncheck();
  assert.equal(await page.getByTestId('sound-button').getAttribute('data-sound'), 'off');
  await tap(page, page.getByTestId('sound-button'));
  const heard = (await logOf(page, '__sounds')).length;
  const plays = await myPlays(page);
  await playUntil(page, async () => (await myPlays(page)) > plays);
  assert.equal((await logOf(page, '__sounds')).length, heard, 'no sound once it is off');
  await page.reload();
  await page.locator('[data-testid=sound-button][data-sound=off]').waitFor();
  await page.context().close();
});

test('quick chat: a bubble by the speaker for the other player and a spectator, the rate limit, mute', { timeout: 120_000 }, async () => {
  const [host, guest] = await inviteRoom('house', 1, [DESKTOP, SMALL_PHONE]);
  const code = await host.getByTestId('room-code').innerText();
  const watcher = await newPage(PORTRAIT);
  await watcher.goto(`${BASE}/watch/${code}`);
  await watcher.getByTestId('spectating').waitFor();
  assert.equal(await watcher.getByTestId('chat-button').count(), 0, 'a spectator has no chat button');
  const hostSeat = await host.locator('.seat.me').getAttribute('data-seat');
  const bubble = (page) => page.getByTestId(`bubble-${hostSeat}`);

  await tap(host, host.getByTestId('chat-button'));
  await host.getByTestId('chat-menu').locator('[data-chat=hello]').click();
  for (const page of [host, guest, watcher]) await bubble(page).filter({ hasText: 'Hello!' }).waitFor();
  assert.ok((await logOf(guest, '__sounds')).includes('chat'), 'a chat is heard');
  // The menu rests for 3 s after a chat, as the server does.
  await tap(host, host.getByTestId('chat-button'));
  assert.ok(await host.locator('[data-chat=thanks]').isDisabled(), 'no second chat at once');
  // The bubble goes after about 3 s.
  await bubble(guest).waitFor({ state: 'detached', timeout: 5000 });

  // The guest mutes the host: the host's next chat shows to the spectator, not to the guest.
  await tap(guest, guest.getByTestId('chat-button'));
  await guest.getByTestId('chat-menu').getByRole('checkbox', { name: /^Mute Host/ }).check();
  await host.locator('[data-chat=laugh]:enabled').click({ timeout: 5000 });
  await bubble(watcher).filter({ hasText: '😂' }).waitFor();
  await sleep(300);
  assert.equal(await bubble(guest).count(), 0, 'a muted player shows no bubble');

  // Remembered by name: after a reload the host is still muted; unmuted, the host's chats show again.
  await guest.reload();
  await tap(guest, guest.getByTestId('chat-button'));
  const mute = guest.getByTestId('chat-menu').getByRole('checkbox', { name: /^Mute Host/ });
  assert.ok(await mute.isChecked(), 'the mute is remembered');
  await mute.uncheck();
  await host.getByTestId('chat-button').click();
  await host.locator('[data-chat=well_played]:enabled').click({ timeout: 5000 });
  await bubble(guest).filter({ hasText: 'Well played!' }).waitFor();
  for (const page of [host, guest, watcher]) await page.context().close();
});
