import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { build, type Rollup } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { score } from '#machines/items/score.ts';
import { itemWithResponses } from '#tests/machines/items/support/arbitraries.ts';

/**
 * The server and the client preview score with the same module. This bundles machines/items/score.ts
 * with the client's bundler (Vite) and runs it inside a jsdom window, a separate JavaScript realm
 * with its own built-ins, exactly as the browser would get it: the item as the server stores it
 * (JSON) and the responses as the client sends them (JSON), parsed by that realm's JSON. The
 * server side scores the same JSON in Node. Both answers must be the same, byte for byte.
 */
let clientScoreAll: (itemJson: string, responsesJson: string) => string;

beforeAll(async () => {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      lib: { entry: 'machines/items/score.ts', formats: ['iife'], name: 'ItemScorer', fileName: 'item-scorer' },
    },
  })) as Rollup.RollupOutput[];
  const code = output[0].output[0].code;
  expect(code).not.toMatch(/require\(|process\.|Buffer/);
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { runScripts: 'outside-only' });
  dom.window.eval(code);
  dom.window.eval(`window.scoreAll = (itemJson, responsesJson) => {
    const item = JSON.parse(itemJson);
    return JSON.stringify(JSON.parse(responsesJson).map((r) => ItemScorer.score(item, r)));
  }`);
  clientScoreAll = (dom.window as unknown as { scoreAll: typeof clientScoreAll }).scoreAll;
  // A realm of its own: its Array is not Node's.
  expect(dom.window.eval('Array') === Array).toBe(false);
}, 60_000);

function serverScoreAll(itemJson: string, responsesJson: string): string {
  const item = JSON.parse(itemJson) as ItemContent;
  return JSON.stringify((JSON.parse(responsesJson) as ItemResponse[]).map((r) => score(item, r)));
}

describe('score in Node and in a jsdom window', () => {
  it('should give identical results when generated items and responses travel as JSON', () => {
    fc.assert(
      fc.property(itemWithResponses, ([item, responses]) => {
        const itemJson = JSON.stringify(item);
        const responsesJson = JSON.stringify(responses);
        const server = serverScoreAll(itemJson, responsesJson);
        expect(clientScoreAll(itemJson, responsesJson)).toBe(server);
        // Scoring the stored form gives what scoring the authored object gives.
        expect(server).toBe(JSON.stringify(responses.map((r) => score(item, r))));
      }),
      { numRuns: 400 },
    );
  });
});
