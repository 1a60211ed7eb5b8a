// The app that installs and plays without the server (issue 50), in Chromium on a phone held sideways: the
// page names its web manifest (full screen, sideways, icons of 192 and 512 pixels), its service worker takes
// the page and keeps the page, its code and the engine with the bots; the install button in the shell's menu
// hands Chromium's install offer to the player. Then the server is stopped (killed: `DDZ_SERVER_PID`), the page
// reloads from the service worker, and Play vs 2 Bots (the name asked first) opens the page's own table, says
// it is offline, and plays a whole deal to its result against the bots in the page. A reload finds the table
// again, result and all; and a puzzle kept in the app plays there with the solver in the page, unrated.
// Usage: DDZ_URL=http://127.0.0.1:8080 DDZ_SERVER_PID=<the server's pid> node web/e2e/pwa.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, PHONE, answerName, newPage, playDeal, resultText, shot, sleep, tap, uniqueName, useBrowser } from './harness.mjs';

useBrowser();

const SERVER_PID = Number(process.env.DDZ_SERVER_PID);

/** The width and height a PNG file says it has (its IHDR chunk). */
function pngSize(bytes) {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

async function serverAnswers() {
  try {
    return (await fetch(`${BASE}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

test('the app installs, and with the server stopped Play vs 2 Bots plays a whole deal in the page', { timeout: 240_000 }, async () => {
  assert.ok(SERVER_PID > 0, 'DDZ_SERVER_PID names the server to stop');
  const page = await newPage(PHONE);
  await page.goto(BASE);

  // The manifest: installed, the app opens full screen and sideways, with its icons.
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const answer = await page.request.get(new URL(href, BASE).href);
  assert.equal(answer.headers()['content-type'], 'application/manifest+json');
  const manifest = await answer.json();
  assert.equal(manifest.display, 'fullscreen');
  assert.equal(manifest.orientation, 'landscape');
  assert.equal(manifest.start_url, '/');
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
    assert.ok(icon, `an icon of ${size}`);
    const file = await page.request.get(new URL(icon.src, BASE).href);
    assert.equal(file.status(), 200);
    assert.equal(pngSize(await file.body()), size);
  }

  // The service worker takes the page once it has kept everything the page needs.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const kept = await page.evaluate(async () => {
    const paths = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    return paths;
  });
  assert.ok(kept.includes('/index.html'), `the page is kept: ${kept.join(' ')}`);
  assert.ok(kept.some((p) => /^\/assets\/ddz-.*\.wasm$/.test(p)), 'the engine is kept');
  assert.ok(!kept.some((p) => p.startsWith('/api/')), "the server's answers are not kept");

  // Install: Chromium offers it to the page (headless Chromium never does, so the test makes the offer), and
  // the button in the shell's menu hands it to the player.
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true });
    offer.prompt = async () => {
      window.__installPrompted = true;
    };
    offer.userChoice = Promise.resolve({ outcome: 'accepted', platform: 'web' });
    window.dispatchEvent(offer);
  });
  await tap(page, page.getByTestId('nav-menu'));
  await tap(page, page.getByTestId('install'));
  await page.waitForFunction(() => window.__installPrompted === true);
  await page.getByTestId('install').waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');

  // The server stops.
  process.kill(SERVER_PID, 'SIGKILL');
  for (let i = 0; (await serverAnswers()) && i < 50; i++) await sleep(100);
  assert.equal(await serverAnswers(), false, 'the server is down');

  // The page opens from the service worker, and Play vs 2 Bots (asking the name first) plays in the page.
  await page.reload();
  const name = uniqueName('Pocket');
  await tap(page, page.getByRole('button', { name: 'Play vs 2 Bots' }));
  await answerName(page, name);
  await page.getByTestId('offline-banner').waitFor();
  assert.match(page.url(), /#\/offline$/);
  await page.locator('[data-testid=hand] .card').nth(16).waitFor();
  await playDeal([page]);
  const result = await resultText(page);
  assert.match(result.join(), /The (landlord wins|farmers win)!/);
  assert.match(result.join(), new RegExp(name));
  assert.equal(await page.getByTestId('result').getByRole('link', { name: /replay/i }).count(), 0, 'no replay offline');
  await shot(page, 'offline-app-result');

  // The deal is kept in the browser: a reload finds the table, and its result.
  await page.reload();
  await page.getByTestId('offline-banner').waitFor();
  assert.deepEqual(await resultText(page), result);

  // A puzzle kept in the app plays with the solver in the page, unrated.
  await page.goto(`${BASE}/#/puzzles`);
  await page.getByTestId('puzzle-goal').waitFor();
  const outcome = page.getByTestId('puzzle-outcome');
  for (let turn = 0; turn < 40 && !(await outcome.isVisible()); turn++) {
    await tap(page, page.getByTestId('puzzle-hint'));
    const pass = page.getByTestId('puzzle-pass');
    await tap(page, (await pass.evaluate((b) => b.classList.contains('hinted'))) ? pass : page.getByTestId('puzzle-play'));
  }
  assert.equal(await outcome.innerText(), 'Solved!');
  assert.match(await page.getByTestId('puzzle').innerText(), /Offline: a puzzle kept in this app, not rated\./);
  await page.context().close();
});
