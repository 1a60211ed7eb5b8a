// Browser tests: Chromium (Debian's /usr/bin/chromium) driven by playwright-core against a running
// `ddz serve`. Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/run.mjs
// Screenshots go to docs/screenshots/ (DDZ_SCREENSHOTS overrides). Exits non-zero on a failure.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test, after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BASE = process.env.DDZ_URL;
if (!BASE) throw new Error('set DDZ_URL to the server, e.g. http://127.0.0.1:8080');
const SHOTS = process.env.DDZ_SCREENSHOTS ?? join(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
mkdirSync(SHOTS, { recursive: true });

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    // playwright-core gives each launch a fresh temporary --user-data-dir.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
});
after(async () => {
  await browser?.close();
});

async function newPage(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  return page;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function handCards(page) {
  return page.locator('[data-testid=hand] .card').evaluateAll((els) => els.map((e) => e.dataset.card));
}

test('home renders quickly; the Chinese UI renders', async () => {
  const page = await newPage();
  await page.goto(BASE);
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).waitFor();
  const timing = await page.evaluate(() => {
    const mark = performance.getEntriesByName('ddz-first-render')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { firstRender: mark?.startTime, fcp: fcp?.startTime };
  });
  assert.ok(timing.firstRender > 0, 'the app marks its first render');
  console.log(`FIRST_RENDER_MS ${timing.firstRender.toFixed(0)} FCP_MS ${timing.fcp?.toFixed(0) ?? 'n/a'}`);
  await page.screenshot({ path: join(SHOTS, 'home.png') });

  await page.getByRole('button', { name: '简体中文' }).click();
  await page.getByRole('button', { name: '对战两个机器人' }).waitFor();
  assert.equal(await page.locator('h1').innerText().then((s) => s.includes('斗地主')), true);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await page.screenshot({ path: join(SHOTS, 'home-zh.png') });
  // The choice is remembered.
  await page.reload();
  await page.getByRole('button', { name: '对战两个机器人' }).waitFor();
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).waitFor();
  await page.context().close();
});

test('an invite link asks only for a name and seats the guest', async () => {
  const host = await newPage();
  await host.goto(BASE);
  await host.getByTestId('name').fill('Hostess');
  await host.getByRole('button', { name: 'Create invite room' }).click();
  const link = await host.getByLabel('Invite link').inputValue();
  assert.match(link, /\/\?room=[A-Z0-9]+$/);
  const guest = await newPage();
  await guest.goto(link);
  await guest.getByLabel('Your name').fill('Guest');
  await guest.getByRole('button', { name: 'Join' }).click();
  await guest.locator('.seat .name', { hasText: 'Guest (you)' }).waitFor();
  await host.getByRole('button', { name: 'Enter room' }).click();
  await host.locator('.seat .name', { hasText: 'Guest' }).waitFor();
  await host.getByRole('button', { name: 'Add bot' }).click();
  await host.getByRole('button', { name: 'Deal next hand' }).click();
  await guest.locator('[data-testid=hand] .card').nth(16).waitFor();
  // Phone landscape: the whole hand and the prompts fit on the screen.
  await guest.setViewportSize({ width: 844, height: 390 });
  await guest.waitForTimeout(300);
  const boxes = await guest.locator('[data-testid=hand] .card').evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect().toJSON()),
  );
  for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 844 && b.bottom <= 390 + 1, JSON.stringify(b));
  await guest.screenshot({ path: join(SHOTS, 'table-phone.png') });
  await host.context().close();
  await guest.context().close();
});

test('a full House deal against two bots, with a reload mid-deal', { timeout: 300_000 }, async () => {
  const page = await newPage();
  await page.goto(BASE);
  await page.getByTestId('name').fill('Tester');
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
  assert.match(page.url(), /\?room=[A-Z0-9]+/);
  const jokers = await page.locator('[data-testid=hand] .card[data-card$=J]').evaluateAll((els) =>
    els.map((e) => e.getAttribute('aria-label')),
  );
  for (const label of jokers) assert.match(label, /^(Black|Red) Joker$/);

  let tableShot = false;
  let reloaded = false;
  let triedBadSelection = false;
  let plays = 0;
  const deadline = Date.now() + 270_000;
  const result = page.getByTestId('result');
  while (!(await result.isVisible())) {
    assert.ok(Date.now() < deadline, 'the deal ends within the time allowed');
    const take = page.getByRole('button', { name: 'Take the middle cards' });
    const seen = page.getByRole('button', { name: 'Seen' });
    const hint = page.getByRole('button', { name: 'Hint' });
    if (await take.isVisible()) {
      await take.click();
    } else if (await seen.isVisible()) {
      await seen.click();
    } else if (await hint.isVisible()) {
      if (!reloaded) {
        // Reload at the first turn in trick play: the same name rejoins and gets the same hand back.
        const before = await handCards(page);
        await page.reload();
        await page.locator('.nameplate .name', { hasText: 'Tester (you)' }).waitFor();
        await page.locator('[data-testid=hand] .card').first().waitFor();
        const after = await handCards(page);
        assert.deepEqual(after, before, 'the hand after a reload is the hand before it');
        reloaded = true;
        continue;
      }
      const play = page.getByRole('button', { name: 'Play', exact: true });
      const pass = page.getByRole('button', { name: 'Pass', exact: true });
      const hand = await handCards(page);
      if (!triedBadSelection && (await pass.isDisabled())) {
        // A free lead: a selection that is no play shows why; a single card clicked plays.
        const plain = [...new Set(hand.filter((c) => c.length === 2 && !c.endsWith('J')).map((c) => c[0]))];
        if (plain.length >= 2) {
          const low = hand.filter((c) => c[0] === plain.at(-1))[0];
          const next = hand.filter((c) => c[0] === plain.at(-2))[0];
          if ('3456789TJQKA'.indexOf(next[0]) - '3456789TJQKA'.indexOf(low[0]) >= 2 || next[0] === '2') {
            await page.locator(`[data-testid=hand] [data-card="${low}"]`).click();
            await page.locator(`[data-testid=hand] [data-card="${next}"]`).click();
            await page.getByRole('status').filter({ hasText: 'is not a play' }).waitFor({ timeout: 5000 });
            assert.ok(await play.isDisabled());
            await page.locator(`[data-testid=hand] [data-card="${next}"]`).click();
            await play.and(page.locator(':enabled')).waitFor({ timeout: 5000 });
            await play.click();
            triedBadSelection = true;
            plays += 1;
            await sleep(300);
            continue;
          }
        }
      }
      await hint.click();
      const playable = await play
        .and(page.locator(':enabled'))
        .waitFor({ timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      if (playable) {
        if (!tableShot) {
          await page.screenshot({ path: join(SHOTS, 'table.png') });
          tableShot = true;
        }
        await play.click();
        plays += 1;
      } else {
        await pass.click();
      }
    }
    await sleep(250);
  }
  assert.ok(reloaded, 'the reload check ran');
  console.log(`deal done: ${plays} plays, bad selection tried: ${triedBadSelection}`);
  const text = await result.innerText();
  assert.match(text, /The (landlord wins|farmers win)!/);
  await page.screenshot({ path: join(SHOTS, 'deal-end.png') });

  // The host closes the room: the settlement screen.
  await result.getByRole('button', { name: 'Close room' }).click();
  const settlement = page.getByTestId('settlement');
  await settlement.waitFor();
  assert.match(await settlement.innerText(), /pays .* \$\d+|Everyone is square/);
  await page.screenshot({ path: join(SHOTS, 'settlement.png') });

  await page.context().close();
});
