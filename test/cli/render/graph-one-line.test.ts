import { describe, expect, it } from 'vitest';
import { renderGraph } from '../../../src/cli/render/graph/render-graph.js';
import type { GraphView } from '../../../src/cli/render/graph/graph-view.js';

const NAME = 'Ctl\u001b]0;pwned\u0007\nsecond line';

/** A queue controller with a line feed and escape sequences in its name, reading one type. */
const VIEW: GraphView = {
  controllers: [{ name: NAME, kind: 'qcontroller' }],
  types: ['Things.example.org'],
  sourceTypes: ['Things.example.org'],
  edges: [{ controller: NAME, type: 'Things.example.org', kind: 'primary', namespace: 'default' }],
  resources: [
    {
      type: 'Things.example.org',
      resources: [
        {
          namespace: 'default',
          type: 'Things.example.org',
          id: 'a\nb',
          owner: NAME,
          writer: NAME,
          phase: 'running',
          derivedFrom: [],
        },
      ],
    },
  ],
};

describe('graph -o text and -o tree', () => {
  for (const format of ['text', 'tree'] as const) {
    it(`print a controller name's and an id's line feed and escape sequences escaped, each on its own line (${format})`, async () => {
      const out = await renderGraph(VIEW, format);
      // eslint-disable-next-line no-control-regex
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      expect(out).not.toMatch(/^second line/m);
      const named = out.split('\n').filter((l) => l.includes('Ctl'));
      expect(named.length).toBeGreaterThan(0);
      for (const line of named) {
        expect(line).toContain('Ctl\\x1b]0;pwned\\x07\\nsecond line');
      }
      expect(out).toContain('default/a\\nb');
    });
  }
});
