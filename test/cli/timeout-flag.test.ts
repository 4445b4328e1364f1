import { describe, expect, it } from 'vitest';
import { timeoutFlag } from '../../src/cli/timeout-flag.js';

describe('the --timeout the main thread reads before the worker parses the line', () => {
  it('is read in both spellings, in milliseconds', () => {
    expect(timeoutFlag(['check', '--timeout', '2s', 'dir'])).toBe(2000);
    expect(timeoutFlag(['apply', '-f', 'dir', '--timeout=500ms'])).toBe(500);
  });

  it('is the last one given, as the parser takes it', () => {
    expect(timeoutFlag(['check', '--timeout', '1m', '--timeout=3s'])).toBe(3000);
  });

  it('is none after --, when absent, without a value, or when not a duration', () => {
    expect(timeoutFlag(['check', '--', '--timeout', '2s'])).toBeUndefined();
    expect(timeoutFlag(['check', '-f', 'dir'])).toBeUndefined();
    expect(timeoutFlag(['check', '--timeout'])).toBeUndefined();
    expect(timeoutFlag(['check', '--timeout', 'soon'])).toBeUndefined();
  });
});
