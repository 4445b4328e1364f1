import { describe, expect, it } from 'vitest';
import { createRunLog } from '../../src/cli/run/run-log.js';

describe("cosi run's log", () => {
  const circular: Record<string, unknown> = { a: 1 };
  circular['self'] = circular;
  const shared = { s: 1 };
  const record = {
    level: 'warn' as const,
    message: 'odd fields',
    time: 0,
    fields: {
      circular,
      big: 10n,
      err: new Error('inner'),
      when: new Date(0),
      twice: [shared, shared],
      nan: Number.NaN,
      set: new Set(['x']),
    },
  };

  it('writes any field a controller logs, as text: a cycle, a bigint, an error, a date', () => {
    let out = '';
    createRunLog((text) => (out += text), 'text').record(record);
    expect(out).toBe(
      '1970-01-01T00:00:00.000Z WARN  odd fields circular="{\\"a\\":1,\\"self\\":\\"[Circular]\\"}" big=10 err=inner when=1970-01-01T00:00:00.000Z twice="[{\\"s\\":1},{\\"s\\":1}]" nan=NaN set="[\\"x\\"]"\n',
    );
  });

  it('and as JSON, one object on one line', () => {
    let out = '';
    createRunLog((text) => (out += text), 'json').record(record);
    expect(out.endsWith('\n') && out.split('\n').length === 2).toBe(true);
    expect(JSON.parse(out)).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      level: 'warn',
      msg: 'odd fields',
      circular: { a: 1, self: '[Circular]' },
      big: '10',
      err: 'inner',
      when: '1970-01-01T00:00:00.000Z',
      twice: [{ s: 1 }, { s: 1 }],
      nan: 'NaN',
      set: ['x'],
    });
  });

  it("keeps a field named as the line's own, and quotes a key that would split the line", () => {
    let json = '';
    let text = '';
    const named = {
      level: 'info' as const,
      message: 'm',
      time: 0,
      fields: { msg: 'mine', time: 5, 'a b=c': 1 },
    };
    createRunLog((line) => (json += line), 'json').record(named);
    createRunLog((line) => (text += line), 'text').record(named);
    expect(JSON.parse(json)).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      level: 'info',
      msg: 'm',
      'fields.msg': 'mine',
      'fields.time': 5,
      'a b=c': 1,
    });
    expect(text).toBe('1970-01-01T00:00:00.000Z INFO  m msg=mine time=5 "a b=c"=1\n');
  });

  it('writes a message that is not text (a JavaScript controller logged an object)', () => {
    let json = '';
    let text = '';
    const odd = {
      level: 'warn' as const,
      message: circular as unknown as string,
      time: 0,
      fields: {},
    };
    createRunLog((line) => (json += line), 'json').record(odd);
    createRunLog((line) => (text += line), 'text').record({
      ...odd,
      message: 10n as unknown as string,
    });
    expect(JSON.parse(json)).toMatchObject({ msg: '{"a":1,"self":"[Circular]"}' });
    expect(text).toBe('1970-01-01T00:00:00.000Z WARN  10\n');
  });
});
