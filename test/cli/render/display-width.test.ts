import { describe, expect, it } from 'vitest';
import { cutDisplay, displayWidth } from '../../../src/cli/render/display-width.js';
import { columnWidths, tableLine } from '../../../src/cli/render/table.js';
import { fitCell } from '../../../src/cli/ui/row-line.js';

const IDS = ['db-1', '日本語サーバ', 'e\u0301cole-🚀', '👩‍💻-dev', 'ｆｕｌｌ'];

describe('display width', () => {
  it('counts the columns a terminal gives a text, not its UTF-16 units', () => {
    expect(IDS.map(displayWidth)).toEqual([4, 12, 8, 6, 8]);
    expect(displayWidth('\u200b')).toBe(0);
  });

  it('cuts a text to its columns without splitting a character', () => {
    expect(cutDisplay('日本語サーバ', 6)).toBe('日本…');
    expect(displayWidth(cutDisplay('日本語サーバ', 6))).toBeLessThanOrEqual(6);
    expect(cutDisplay('e\u0301cole-🚀', 8)).toBe('e\u0301cole-🚀');
  });

  it("lines up get's table columns after wide and combining ids", () => {
    const header = ['NAMESPACE', 'ID', 'PHASE'];
    const rows = IDS.map((id) => ['default', id, 'running']);
    const widths = columnWidths(header, rows);
    const at = [header, ...rows].map((row) => {
      const line = tableLine(row, widths);
      return displayWidth(line.slice(0, line.indexOf(row[2]!)));
    });
    expect(new Set(at).size).toBe(1);
  });

  it("pads and cuts the watch's cells by columns", () => {
    const cells = IDS.map((id) => fitCell(id, 10));
    expect(cells.map(displayWidth)).toEqual([10, 10, 10, 10, 10]);
    expect(displayWidth(fitCell('日本語サーバ', 7))).toBe(7);
  });
});
