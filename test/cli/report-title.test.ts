import { describe, expect, it } from 'vitest';
import { reportTitle } from '../../src/cli/report-title.js';

describe("a report's title", () => {
  it('names the directory `.` or `..` resolves to, not the dot', () => {
    expect(reportTitle(['.'], '/work/projects/vm-network')).toBe('vm-network');
    expect(reportTitle(['./'], '/work/projects/vm-network')).toBe('vm-network');
    expect(reportTitle(['..'], '/work/projects/vm-network/manifests')).toBe('vm-network');
  });

  it('keeps a path that names its directory as given, but for a trailing slash', () => {
    expect(reportTitle(['fixtures/vm-network'], '/repo')).toBe('fixtures/vm-network');
    expect(reportTitle(['manifests/'], '/repo')).toBe('manifests');
    expect(reportTitle(['a', '../b'], '/repo')).toBe('a ../b');
  });

  it('names the working directory when no path is given', () => {
    expect(reportTitle([], '/work/projects/vm-network')).toBe('vm-network');
  });
});
