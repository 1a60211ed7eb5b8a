// The engine in the page answers as the server does, in Chromium: each case of a JSON-lines file (`kind`
// readings or hints, a `position`, and the server's `expected` body) is answered by the WebAssembly module
// the page bundles, through the calls `web/src/lib/engine/engine.ts` makes, and compared byte for byte.
// Written by crates/ddz/tests/wasm.rs. Usage: node web/e2e/wasm-equal.mjs path/to/ddz.wasm cases.jsonl

import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [wasmPath, casesPath] = process.argv.slice(2);
const wasm = readFileSync(wasmPath).toString('base64');
const cases = readFileSync(casesPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  const started = Date.now();
  const differences = await page.evaluate(
    async ({ wasm, cases }) => {
      const bytes = Uint8Array.from(atob(wasm), (c) => c.charCodeAt(0));
      const { instance } = await WebAssembly.instantiate(bytes);
      const exports = instance.exports;
      const encoder = new TextEncoder();
      const decoder = new TextDecoder();
      const answer = (kind, position) => {
        const input = encoder.encode(JSON.stringify(position));
        const ptr = exports.alloc(input.length);
        new Uint8Array(exports.memory.buffer, ptr, input.length).set(input);
        const packed = exports[kind](ptr, input.length);
        const [at, len] = [Number(packed >> 32n), Number(packed & 0xffffffffn)];
        const body = decoder.decode(new Uint8Array(exports.memory.buffer, at, len));
        exports.dealloc(at, len);
        return body;
      };
      const differences = [];
      for (const { kind, position, expected } of cases) {
        const got = answer(kind, position);
        if (got !== expected) differences.push({ kind, position, expected, got });
      }
      return differences;
    },
    { wasm, cases },
  );
  const ms = Date.now() - started;
  for (const d of differences.slice(0, 5)) console.error(JSON.stringify(d));
  if (differences.length > 0) {
    console.error(`${differences.length} of ${cases.length} answers differ`);
    process.exitCode = 1;
  } else {
    console.log(`${cases.length} answers equal (Chromium, ${ms} ms)`);
  }
} finally {
  await browser.close();
}
