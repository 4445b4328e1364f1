/**
 * The Kubernetes `format` library: named string formats whose `validate(s)` returns
 * `optional.none()` for a valid string, or else an optional list of what is wrong.
 * `format.named(name)` returns an optional format; `format.dns1123Label()` and the like return
 * one directly. The formats: `dns1123Label`, `dns1123Subdomain`, `dns1035Label`,
 * `qualifiedName`, the three `...Prefix` variants (a trailing `-` allowed, for `generateName`),
 * `labelValue`, `uri`, `uuid`, `byte`, `date`, `datetime`.
 */

import { celFunc, celList, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { charge, sizeCost } from '../cost-budget.js';
import { expectTarget, OPAQUE_TYPE, OpaqueValue } from '../opaque-value.js';
import { NONE, Optional } from './optional.js';
import { parseUrl } from './url.js';
import { compileLinearRegExp, type LinearRegExp } from '../../linear-regexp.js';

/** A named format: what is wrong with a string, nothing when it is valid. */
export class Format extends OpaqueValue {
  constructor(
    readonly name: string,
    readonly check: (value: string) => string[],
  ) {
    super('format', name);
  }
}

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
// Linear-time engine: the strings come from manifests and may be long.
const DNS1123_LABEL = compileLinearRegExp(`^${LABEL}$`);
const DNS1123_SUBDOMAIN = compileLinearRegExp(`^${LABEL}(\\.${LABEL})*$`);
const DNS1035_LABEL = compileLinearRegExp(String.raw`^[a-z]([-a-z0-9]*[a-z0-9])?$`);
const QUALIFIED_NAME = compileLinearRegExp(String.raw`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`);
const UUID = compileLinearRegExp(
  String.raw`(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
);
const BASE64 = compileLinearRegExp(
  String.raw`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`,
);
// Fixed-width captures: no backtracking to fear, and `exec` gives the fields.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function maxLength(value: string, max: number): string[] {
  return value.length > max ? [`must be no more than ${max} characters`] : [];
}

/** The name checks of k8s.io/apimachinery, each with its length and character rules. */
function dnsCheck(pattern: LinearRegExp, max: number, what: string, prefix: boolean) {
  return (input: string): string[] => {
    // A prefix (`generateName`) may end in `-`: the generated suffix follows it.
    const value = prefix && input.endsWith('-') ? `${input.slice(0, -1)}a` : input;
    return [...maxLength(value, max), ...(pattern.test(value) ? [] : [`a ${what}`])];
  };
}

/** apimachinery's `RegexError`: the rule, examples, and the pattern it is checked with. */
function regexError(message: string, pattern: string, ...examples: string[]): string {
  const given = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (${examples.length === 0 ? '' : `e.g. ${given}`}regex used for validation is '${pattern}')`;
}

const LABEL_PATTERN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const LABEL_RULE = regexError(
  "lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  LABEL_PATTERN,
  'my-name',
  '123-abc',
);
const SUBDOMAIN_RULE = regexError(
  "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  `${LABEL_PATTERN}(\\.${LABEL_PATTERN})*`,
  'example.com',
);
const DNS1035_RULE = regexError(
  "DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  '[a-z]([-a-z0-9]*[a-z0-9])?',
  'my-name',
  'abc-123',
);
const NAME_ERROR = regexError(
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]',
  'MyName',
  'my.name',
  '123-abc',
);
const NAME_RULE = `name part ${NAME_ERROR}`;

function qualifiedName(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2)
    return [
      `a qualified name ${NAME_ERROR} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const name = parts[parts.length - 1] as string;
  const errors: string[] = [];
  if (parts.length === 2) {
    const prefix = parts[0] as string;
    if (prefix === '') errors.push('prefix part must be non-empty');
    else
      errors.push(
        ...dnsCheck(
          DNS1123_SUBDOMAIN,
          253,
          SUBDOMAIN_RULE,
          false,
        )(prefix).map((e) => `prefix part ${e}`),
      );
  }
  if (name === '') errors.push('name part must be non-empty');
  else {
    errors.push(...maxLength(name, 63).map((e) => `name part ${e}`));
    if (!QUALIFIED_NAME.test(name)) errors.push(NAME_RULE);
  }
  return errors;
}

function labelValue(value: string): string[] {
  if (value === '') return [];
  return [
    ...maxLength(value, 63),
    ...(QUALIFIED_NAME.test(value)
      ? []
      : [
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        ]),
  ];
}

function isDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function date(value: string): string[] {
  const match = DATE.exec(value);
  return match !== null && isDate(Number(match[1]), Number(match[2]), Number(match[3]))
    ? []
    : ['invalid date'];
}

function datetime(value: string): string[] {
  const match = DATETIME.exec(value);
  if (match === null || date(match[1] as string).length > 0) return ['invalid datetime'];
  const [hour, minute, second] = [match[2], match[3], match[4]].map(Number) as [
    number,
    number,
    number,
  ];
  return hour < 24 && minute < 60 && second < 61 ? [] : ['invalid datetime'];
}

function uri(value: string): string[] {
  try {
    parseUrl(value);
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

const FORMATS: ReadonlyMap<string, Format> = new Map(
  (
    [
      ['dns1123Label', dnsCheck(DNS1123_LABEL, 63, LABEL_RULE, false)],
      ['dns1123Subdomain', dnsCheck(DNS1123_SUBDOMAIN, 253, SUBDOMAIN_RULE, false)],
      ['dns1035Label', dnsCheck(DNS1035_LABEL, 63, DNS1035_RULE, false)],
      ['qualifiedName', qualifiedName],
      ['dns1123LabelPrefix', dnsCheck(DNS1123_LABEL, 63, LABEL_RULE, true)],
      ['dns1123SubdomainPrefix', dnsCheck(DNS1123_SUBDOMAIN, 253, SUBDOMAIN_RULE, true)],
      ['dns1035LabelPrefix', dnsCheck(DNS1035_LABEL, 63, DNS1035_RULE, true)],
      ['labelValue', labelValue],
      ['uri', uri],
      ['uuid', (v: string) => (UUID.test(v) ? [] : ['does not match the UUID format'])],
      ['byte', (v: string) => (BASE64.test(v) ? [] : ['invalid base64'])],
      ['date', date],
      ['datetime', datetime],
    ] as const
  ).map(([name, check]) => [name, new Format(name, check)]),
);

/** The names of the formats, for documentation and tests. */
export const FORMAT_NAMES: readonly string[] = [...FORMATS.keys()];

export const formatLibrary: readonly CelFunc[] = [
  celFunc('format.named', [CelScalar.STRING], OPAQUE_TYPE, (name) => {
    const format = FORMATS.get(name);
    return format === undefined ? NONE : new Optional(format);
  }),
  ...[...FORMATS].map(([name, format]) => celFunc(`format.${name}`, [], OPAQUE_TYPE, () => format)),
  celMethod('validate', OPAQUE_TYPE, [CelScalar.STRING], OPAQUE_TYPE, function (value) {
    charge(sizeCost(value.length));
    const errors = expectTarget(this, Format, 'validate').check(value);
    return errors.length === 0 ? NONE : new Optional(celList(errors));
  }),
];
