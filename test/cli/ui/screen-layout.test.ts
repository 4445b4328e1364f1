import { describe, expect, it } from 'vitest';
import { screenLayout } from '../../../src/cli/ui/screen-layout.js';

const sum = (l: ReturnType<typeof screenLayout>) =>
  l.header + l.findings + l.filter + l.body + l.controllers + l.footer;

describe('the screen layout', () => {
  it('never takes more lines than the terminal has, keeping the round and verdict line', () => {
    for (let rows = 1; rows <= 50; rows++) {
      const layout = screenLayout(rows, { findings: 3, controllers: 5, filter: true });
      expect(sum(layout), `${rows} rows`).toBe(layout.height);
      expect(layout.height).toBeLessThanOrEqual(Math.max(rows - 1, 1));
      expect(layout.header).toBeGreaterThanOrEqual(1);
    }
  });

  it('gives a short terminal the header, a line of body and the footer first', () => {
    expect(screenLayout(5, { findings: 2, controllers: 3, filter: false })).toEqual({
      height: 4,
      header: 2,
      findings: 0,
      filter: 0,
      body: 1,
      controllers: 0,
      footer: 1,
    });
  });

  it('gives a tall terminal the findings and the controllers, the body the rest', () => {
    expect(screenLayout(40, { findings: 2, controllers: 3, filter: false })).toEqual({
      height: 39,
      header: 2,
      findings: 2,
      filter: 0,
      body: 30,
      controllers: 4,
      footer: 1,
    });
  });
});
