// What a person would notice on a screen, measured in the page: a card of the hand without a visible strip
// that takes a tap, a button covered by something else, text that overlaps other text, a page wider than the
// screen, a phone's top bar of more than one row, the middle or bottom cards cut off, a deal's end whose hands,
// last trick or lines of the amount explained are cut off, a table's column outside its panel, and in the
// shell and the hall a tap target under 44px or covered, a tile's words spilling out of it, a part cut off or
// (sideways, where the hall does not scroll) off the screen, and the same on the pages of tiles and panels (the
// tournaments, an event's page, a player's page, the boards) (`layoutProblems`), and what axe-core finds about
// contrast and unnamed controls (`axeViolations`).

import { fileURLToPath } from 'node:url';

/** The sizes every screen is laid out for: phones on their side first, phones upright, a laptop and a desktop. */
export const SIZES = [
  [640, 360], [667, 375], [740, 360], [800, 360], [844, 390], [915, 412], [932, 430],
  [360, 640], [375, 667], [390, 844], [412, 915],
  [1280, 800], [1920, 1080],
].map(([width, height]) => ({ width, height }));

/**
 * The problems of the screen as it is now. The hand is measured with no card selected (a selected card
 * stands out of its row).
 */
export function layoutProblems(page) {
  return page.evaluate((PAGES) => {
    const problems = [];
    const width = innerWidth;
    const height = innerHeight;
    const rect = (el) => el.getBoundingClientRect();
    const describe = (el) => {
      const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${text}"`;
    };
    // `checkVisibility` also knows what a closed <details> hides (its content is skipped, yet keeps a box).
    const visible = (el) => {
      const r = rect(el);
      return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true });
    };
    const inViewport = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= width + 0.5 && r.bottom <= height + 0.5;
    /** Whether a tap at (x, y) lands on `el` (or inside it). */
    const hits = (el, x, y) => {
      const found = document.elementFromPoint(x, y);
      return found !== null && el.contains(found) ? null : found ? describe(found) : 'nothing';
    };

    if (document.documentElement.scrollWidth > width + 0.5)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`);

    // The hand: each card keeps a strip (the part no later card covers) that shows its corner and takes a tap.
    const cards = [...document.querySelectorAll('[data-testid=hand] [data-card]')];
    const boxes = cards.map(rect);
    cards.forEach((card, i) => {
      const box = boxes[i];
      const strip = { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
      const later = boxes.slice(i + 1).filter((b) => b.left < strip.right && b.right > strip.left && b.top < strip.bottom && b.bottom > strip.top);
      // Cards of the same row (one under the pointer stands a little higher) cut the strip on the right; those
      // of a lower row cut it at the bottom.
      const sameRow = (b) => Math.abs(b.top - box.top) < box.height / 4;
      for (const b of later.filter(sameRow)) strip.right = Math.min(strip.right, b.left);
      for (const b of later.filter((b) => !sameRow(b) && b.left < strip.right)) strip.bottom = Math.min(strip.bottom, b.top);
      const w = strip.right - strip.left;
      const h = strip.bottom - strip.top;
      const name = `card ${card.dataset.card}`;
      if (w < 16 || h < 24) problems.push(`${name} shows a strip of only ${w.toFixed(0)}x${h.toFixed(0)}px`);
      else if (!inViewport(strip)) problems.push(`${name}'s strip is off the screen: ${JSON.stringify(strip)}`);
      else {
        const missed = hits(card, (strip.left + strip.right) / 2, (strip.top + strip.bottom) / 2);
        if (missed) problems.push(`a tap on ${name}'s strip lands on ${missed}`);
        const corner = card.querySelector('.corner');
        const c = corner && rect(corner);
        if (c && (c.left < strip.left - 0.5 || c.right > strip.right + 0.5 || c.top < strip.top - 0.5 || c.bottom > strip.bottom + 0.5))
          problems.push(`${name}'s corner "${corner.textContent}" does not fit its strip`);
      }
    });

    // Every card's corner inside its card (the jokers' words included).
    for (const corner of document.querySelectorAll('.card .corner')) {
      const c = rect(corner);
      const b = rect(corner.closest('.card'));
      if (c.left < b.left - 0.5 || c.right > b.right + 0.5 || c.top < b.top - 0.5 || c.bottom > b.bottom + 0.5)
        problems.push(`the corner "${corner.textContent}" is cut by its card`);
    }

    // The action buttons (the prompt's, a deal's result's, and the dialogs'): on screen, and a tap at the centre
    // lands on them. A deal's result is no dialog: it sits between the felt and the player's seat.
    const dialog = document.querySelector('.result:not(.story)');
    const actions = dialog
      ? dialog.querySelectorAll('button')
      : document.querySelectorAll('.dock .prompt > button, .result.story button, .tools .auto-play, .readings .pill.on');
    for (const button of [...actions].filter(visible)) {
      const r = rect(button);
      if (!inViewport(r)) problems.push(`${describe(button)} is off the screen`);
      else {
        const missed = hits(button, r.left + r.width / 2, r.top + r.height / 2);
        if (missed) problems.push(`a tap on ${describe(button)} lands on ${missed}`);
      }
    }

    // Text and pictures that must not overlap: under an open dialog (a deal's settlement, a sheet) only the
    // dialog's own.
    const sheet = [...document.querySelectorAll('.sheet[open]')].at(-1);
    const LABELS = [
      '.topbar > *', '.topbar .more > *', '.counter-box h2', '.counter li', '.seat .nameplate', '.seat .name', '.badge', '.balance', '.count',
      '.played .say', '.played .reading', '.played .mini-cards', '.trick', '.bottom', '.middle .status', '.middle .invite',
      '.dock .prompt button', '.tools summary', '.notes > *', '.hand', '.seat .face', '.seat .hold', '.readings',
      '.result h2', '.result .big', '.result td', '.result li', '.result button', '.challenge-bar > *',
      '.hand-end', '.auction-info > *', '.tools .auto-play',
      // The shell and the hall.
      '.shell-nav > *', '.hall .top > *', '.hall .next > *', '.hall h2', '.hall .tile', '.hall .tile > *', '.lobby li > *',
      // The tournaments, an event's page, a player's page and the boards.
      ...PAGES.flatMap((root) => [`${root} .head > *`, `${root} h2`, `${root} .tile > *`, `${root} .panel li > *`, `${root} td > *`]),
      '.event-page .stage > *', '.event-page .spot > *', '.player-page .deals a > *', '.player-page .rating .value > *',
      '.boards-page .tabs > *',
    ].join(', ');
    /** The part of an element that shows: its box cut by every scrolling or clipping box around it. */
    const shown = (el) => {
      const r = rect(el);
      const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (getComputedStyle(p).overflow === 'visible') continue;
        const c = rect(p);
        box.left = Math.max(box.left, c.left);
        box.top = Math.max(box.top, c.top);
        box.right = Math.min(box.right, c.right);
        box.bottom = Math.min(box.bottom, c.bottom);
      }
      return box;
    };
    const labels = [...document.querySelectorAll(LABELS)]
      .filter(visible)
      .filter((el) => !dialog || dialog.contains(el))
      .filter((el) => !sheet || sheet.contains(el));
    // A page that scrolls passes under the shell's fixed bar: the bar over it is no overlap.
    const scrolling = document.documentElement.scrollHeight > height + 0.5;
    const onBar = (el) => el.closest('.shell-nav') !== null;
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const [a, b] = [labels[i], labels[j]];
        if (a.contains(b) || b.contains(a)) continue;
        if (scrolling && onBar(a) !== onBar(b)) continue;
        const [ra, rb] = [shown(a), shown(b)];
        const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (x > 1 && y > 1) problems.push(`${describe(a)} overlaps ${describe(b)}`);
      }

    /** Whether the whole of an element is on the screen, not cut by a box that scrolls or clips it. */
    const inFullView = (el) => {
      const r = rect(el);
      const s = shown(el);
      return inViewport(r) && s.left <= r.left + 0.5 && s.top <= r.top + 0.5 && s.right >= r.right - 0.5 && s.bottom >= r.bottom - 0.5;
    };
    // A deal's end fits the screen: every hand face up, every seat's last move and every line of the amount
    // explained in full view, unscrolled.
    if (document.querySelector('.result.story'))
      for (const el of document.querySelectorAll('.hand-end, .played, .result.story .score-lines li'))
        if (!inFullView(el)) problems.push(`${describe(el)} is cut off at the deal's end`);

    // The middle or bottom cards (face down in the auction) are never under the controls or off the felt.
    for (const el of [...document.querySelectorAll('.middle .bottom .mini-cards')].filter(visible))
      if (!inFullView(el)) problems.push(`the ${describe(el.closest('.bottom'))} cards are cut off`);
    // The row's last card is the one no other card of it covers.
    for (const el of [...document.querySelectorAll('.middle .bottom .card:last-child')].filter(visible)) {
      const r = rect(el);
      const missed = hits(el, r.left + r.width / 2, r.top + r.height / 2);
      if (missed) problems.push(`a middle or bottom card lies under ${missed}`);
    }

    // A phone's top bar is one row: everything in it starts on the first row, and it stays low.
    const bar = document.querySelector('.topbar');
    if (bar && width < 900) {
      const items = [...bar.children].filter(visible);
      const firstRowEnds = Math.min(...items.map((el) => rect(el).bottom));
      for (const el of items) if (rect(el).top >= firstRowEnds - 1) problems.push(`${describe(el)} wraps to a second row of the top bar`);
      if (rect(bar).height > 48) problems.push(`the top bar is ${rect(bar).height.toFixed(0)}px high on a phone`);
    }

    // The shell and the hall: every tap target at least 44px each way; every part of a tile or of the player's
    // card inside it; nothing cut by a box that clips it, or (the hall not scrolling sideways) by the screen.
    const TARGETS = ['.shell-nav a', '.shell-nav button', '.hall a', '.hall button', '.hall select', '.sheet[open] a',
      '.sheet[open] button', '.sheet[open] select', '.sheet[open] input:not([type=checkbox]):not([type=radio])',
      ...PAGES.flatMap((root) => [`${root} a`, `${root} button`, `${root} select`, `${root} summary`])].join(', ');
    // A tap at a target's centre lands on it; on a page that scrolls, one the fixed bar lies over now is
    // scrolled out from under it. In a box that scrolls (a long sheet) the tap goes to the part in view: one
    // scrolled out of it is left for when it is scrolled in.
    const nav = document.querySelector('.shell-nav')?.getBoundingClientRect();
    const underBar = (r) => nav && r.left < nav.right && r.right > nav.left && r.top < nav.bottom && r.bottom > nav.top;
    // Under an open sheet only its own targets take a tap.
    for (const el of [...document.querySelectorAll(TARGETS)].filter(visible).filter((el) => !sheet || sheet.contains(el))) {
      const r = rect(el);
      if (r.width < 43.5 || r.height < 43.5) problems.push(`${describe(el)} is a tap target of only ${r.width.toFixed(0)}x${r.height.toFixed(0)}px`);
      if (!inViewport(r) || (scrolling && !onBar(el) && underBar(r))) continue;
      const s = shown(el);
      if (s.right - s.left < 1 || s.bottom - s.top < 1) continue;
      const missed = hits(el, (s.left + s.right) / 2, (s.top + s.bottom) / 2);
      if (missed) problems.push(`a tap on ${describe(el)} lands on ${missed}`);
    }
    for (const el of [...document.querySelectorAll(['.hall .tile *, .hall .player-card *, .hall .live *', ...PAGES.map((root) => `${root} .tile *`)].join(', '))].filter(visible)) {
      const box = el.closest('.tile, .player-card, .live');
      const [r, b] = [rect(el), rect(box)];
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
        problems.push(`${describe(el)} spills out of ${describe(box)}`);
    }
    const sideways = height <= 500 && width > height;
    for (const el of [...document.querySelectorAll('.shell-nav > *, .hall .top > *, .hall h2, .hall .tile, .hall .tile > *, .hall .bots > *')].filter(visible)) {
      const r = rect(el);
      const s = shown(el);
      if (s.left > r.left + 0.5 || s.top > r.top + 0.5 || s.right < r.right - 0.5 || s.bottom < r.bottom - 0.5) problems.push(`${describe(el)} is cut off`);
      else if (r.left < -0.5 || r.right > width + 0.5 || (sideways && (r.top < -0.5 || r.bottom > height + 0.5)))
        problems.push(`${describe(el)} is off the screen`);
    }

    // The pages of tiles and panels scroll down, never sideways: nothing cut, nothing off the screen's sides.
    for (const el of [...document.querySelectorAll(PAGES.map((root) => `${root} .tile, ${root} .panel, ${root} .head > *`).join(', '))].filter(visible)) {
      const r = rect(el);
      const s = shown(el);
      if (s.left > r.left + 0.5 || s.top > r.top + 0.5 || s.right < r.right - 0.5 || s.bottom < r.bottom - 0.5) problems.push(`${describe(el)} is cut off`);
      else if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${describe(el)} is off the screen`);
    }

    // On those pages no words run out of their box (a long name, a line in Chinese): a box that lets its
    // content out is wider inside than out. Boxes that clip on purpose (an ellipsis) and the hidden are left.
    // Half an em is allowed: Chromium trims the blank half of a full-width mark that ends a line (`）`), and
    // counts that half as content out of the box though nothing shows there.
    for (const el of document.querySelectorAll(PAGES.map((root) => `${root} *`).join(', '))) {
      if (!(el instanceof HTMLElement) || !visible(el) || el.closest('.sr-only')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.overflowX !== 'visible') continue;
      if (el.scrollWidth > el.clientWidth + parseFloat(style.fontSize) / 2 + 1)
        problems.push(`${describe(el)} runs ${el.scrollWidth - el.clientWidth}px out of its box`);
    }

    // A table's columns stay inside its panel (the boards' Date column spilled past it on a phone).
    for (const cell of [...document.querySelectorAll('.panel th, .panel td')].filter(visible)) {
      const panel = rect(cell.closest('.panel'));
      const r = rect(cell);
      if (r.right > panel.right + 0.5 || r.left < panel.left - 0.5) problems.push(`${describe(cell)} spills past its panel`);
    }
    return problems;
  }, PAGES);
}

/** The pages of panels and tiles measured as the hall is: the tournaments, an event's, a player's, the boards. */
const PAGES = ['.events-page', '.event-page', '.player-page', '.boards-page'];

const AXE = fileURLToPath(new URL('../node_modules/axe-core/axe.min.js', import.meta.url));

/** The axe-core rules a screen must pass: contrast and a name for every control and picture. */
const AXE_RULES = new Set([
  'color-contrast',
  'label',
  'button-name',
  'link-name',
  'select-name',
  'input-button-name',
  'summary-name',
  'aria-input-field-name',
  'aria-toggle-field-name',
  'aria-command-name',
  'role-img-alt',
  'image-alt',
  'svg-img-alt',
  'document-title',
]);

/**
 * axe-core's findings on the page as it is now, one line each: every serious or critical finding of any rule,
 * and the contrast and missing-name rules whatever their impact (`serious: false` keeps only those).
 */
export async function axeViolations(page, { serious = true } = {}) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run()).violations);
  return violations
    .filter((v) => AXE_RULES.has(v.id) || (serious && ['serious', 'critical'].includes(v.impact)))
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`));
}
