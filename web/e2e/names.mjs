// Browser tests of protected names (docs/names.md, issue 37): a name protected in one browser context (from the
// player's card in the hall), a stranger in a second context refused with "This name is protected" (in English
// and Chinese), the recovery code typed there to take the name over and play, the first context's key no longer
// working, and the lock on the card, the board and the stats page.
// Usage: DDZ_URL=http://127.0.0.1:8080 node web/e2e/names.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, SMALL_PHONE, answerName, assertLayout, chooseLanguage, newPage, shot, tap, uniqueName, useBrowser } from './harness.mjs';
import { axeViolations } from './layout.mjs';

useBrowser();

/** Plays vs bots from the home screen and waits for a hand of 17 (the server took the name). */
async function playsVsBots(page) {
  await page.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await page.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 30_000 });
  assert.match(page.url(), /\?room=[A-Z0-9]+/);
}

/** Opens the player's card (the name, protecting and recovering it) and types `name` in it. */
async function openCard(page, name) {
  await tap(page, page.getByTestId('player-card'));
  const card = page.getByTestId('player-dialog');
  if (name !== undefined) await card.getByTestId('name').fill(name);
  return card;
}

/** Closes the player's card with Done (the name typed becomes the player's). */
async function closeCard(page) {
  await tap(page, page.getByTestId('name-done'));
  await page.getByTestId('player-dialog').waitFor({ state: 'detached' });
}

/** The recovery code on show, after checking the warning that goes with it (and a screenshot); then dismissed. */
async function recoveryCode(page, name, screenshot) {
  const shown = page.getByTestId('recovery');
  await shown.waitFor();
  assert.match(await shown.innerText(), /shown only once/);
  await shot(page, screenshot);
  const code = await page.getByRole('textbox', { name: 'Recovery code', exact: true }).inputValue();
  assert.match(code, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  await page.getByRole('button', { name: 'I have written it down' }).click();
  await page.getByTestId('protected-here').waitFor();
  assert.equal(await page.evaluate((n) => JSON.parse(localStorage.getItem('ddz.keys'))[n.toLowerCase()]?.length, name), 64);
  return code;
}

test('a name protected in one browser is refused to another until recovered there', { timeout: 180_000 }, async () => {
  const name = uniqueName('Keeper');

  // Browser A protects the name on the player's card and plays under it; the card shows the lock.
  const a = await newPage();
  await a.goto(BASE);
  await openCard(a, name);
  await a.getByRole('button', { name: 'Protect this name' }).click();
  const code = await recoveryCode(a, name, 'name-protected');
  await closeCard(a);
  await a.getByTestId('card-name').getByRole('img', { name: 'Protected name' }).waitFor();
  await playsVsBots(a);

  // Browser B, a stranger, gives the same name (in another case) when Play vs 2 Bots asks for one: refused, in
  // English and in Chinese.
  const b = await newPage();
  await b.goto(BASE);
  await b.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await answerName(b, name.toUpperCase());
  await b.getByRole('alert').filter({ hasText: 'This name is protected' }).waitFor();
  await chooseLanguage(b, '简体中文');
  await b.getByRole('button', { name: '对战两个机器人' }).click();
  await b.getByRole('alert').filter({ hasText: '这个名字受保护' }).waitFor();
  await chooseLanguage(b, 'English');
  // Nor can B protect it over A.
  const card = await openCard(b);
  assert.equal(await card.getByTestId('name').inputValue(), name.toUpperCase(), 'the name given when asked');
  await card.getByRole('button', { name: 'Protect this name' }).click();
  await card.getByRole('alert').filter({ hasText: 'This name is protected' }).waitFor();

  // B recovers it with A's code (a wrong one first), gets a new code, and plays.
  await card.getByRole('button', { name: 'Recover a name on this device' }).click();
  await card.getByRole('textbox', { name: 'Recovery code', exact: true }).fill('00000-00000-00000-00000');
  await card.getByRole('button', { name: 'Recover', exact: true }).click();
  await card.getByRole('alert').filter({ hasText: 'not the recovery code' }).waitFor();
  await card.getByRole('textbox', { name: 'Recovery code', exact: true }).fill(code.toLowerCase());
  await card.getByRole('button', { name: 'Recover', exact: true }).click();
  const newCode = await recoveryCode(b, name, 'name-recovered');
  assert.notEqual(newCode, code, 'a recovery gives a new code');
  await closeCard(b);
  assert.equal(await b.getByRole('alert').count(), 0, 'the earlier refusal is gone');
  await playsVsBots(b);

  // A's key stopped working with the recovery: A is a stranger now.
  await a.goto(BASE);
  await a.getByRole('button', { name: 'Play vs 2 Bots' }).click();
  await a.getByRole('alert').filter({ hasText: 'This name is protected' }).waitFor();
  // A forgot the refused key, and the card offers to recover the name again.
  await (await openCard(a)).getByRole('button', { name: 'Recover a name on this device' }).waitFor();
  assert.equal(await a.evaluate(() => localStorage.getItem('ddz.keys')), '{}');

  // A Bot Buster run, abandoned at once, puts the name on its board, marked; so is its stats page.
  await b.goto(BASE);
  await b.getByTestId('start-buster').click();
  await b.locator('[data-testid=hand] .card').nth(16).waitFor({ timeout: 30_000 });
  await b.getByRole('button', { name: 'Abandon run' }).first().click();
  await b.getByTestId('run-over').waitFor();
  await b.goto(`${BASE}/#/boards/buster`);
  const row = b.getByTestId('board').getByRole('row', { name: new RegExp(name, 'i') });
  await row.getByRole('img', { name: 'Protected name' }).waitFor();
  await b.goto(`${BASE}/#/stats/${encodeURIComponent(name)}`);
  await b.getByRole('heading').getByRole('img', { name: 'Protected name' }).waitFor();
  await a.context().close();
  await b.context().close();
});

test('the name guard fits a small phone and passes axe-core in each of its states', { timeout: 60_000 }, async () => {
  const page = await newPage(SMALL_PHONE);
  await page.goto(BASE);
  const check = async (when) => {
    await assertLayout(page, when);
    assert.deepEqual(await axeViolations(page), [], `axe-core on ${when}`);
  };
  await openCard(page, uniqueName('Phone'));
  await check('the protect button');
  await page.getByRole('button', { name: 'Recover a name on this device' }).click();
  await check('the recovery form');
  await page.getByRole('button', { name: 'Protect this name' }).click();
  await page.getByTestId('recovery').waitFor();
  await check('the recovery code');
  await page.getByRole('button', { name: 'I have written it down' }).click();
  await page.getByTestId('protected-here').waitFor();
  await check('a protected name');
  await page.context().close();
});
