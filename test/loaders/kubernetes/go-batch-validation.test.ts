import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { cronScheduleError } from '../../../src/loaders/kubernetes/cron-schedule.js';
import { timeZoneError } from '../../../src/loaders/kubernetes/time-zone.js';

/**
 * What the API server refuses of Jobs and CronJobs that the OpenAPI passes
 * (k8s.io/kubernetes `pkg/apis/batch/validation`): a schedule robfig/cron cannot parse, a time
 * zone the IANA database lacks, negative counts, indexed-only fields without indexed completion.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string, kubernetesVersion?: '1.28') =>
  loadManifests([{ path: 'jobs.yaml', text }], { kubernetesVersion }).findings;

const cronJob = (spec: string, name = 'nightly') =>
  `---\napiVersion: batch/v1\nkind: CronJob\nmetadata: { name: ${name} }\nspec:\n${spec}\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{ name: a, image: busybox }]\n`;
const job = (spec: string, name = 'batch') =>
  `---\napiVersion: batch/v1\nkind: Job\nmetadata: { name: ${name} }\nspec:\n${spec}\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{ name: a, image: busybox }]\n`;

describe('a cron schedule, as robfig/cron ParseStandard reads it', () => {
  it('takes five fields of numbers, names, ranges, lists, steps, and the descriptors', () => {
    for (const schedule of [
      '0 5 * * *',
      '*/15 0-6,22 ? JAN-mar MON-FRI',
      '5/10 * 1-31 12 sun,sat',
      '0 0 1,,15 * *',
      '  0   0 * * 0  ',
      '+5 05 * * *',
      '@daily',
      '@midnight',
      '@every 1h30m',
      'TZ=Europe/London 0 5 * * *',
    ]) {
      expect([schedule, cronScheduleError(schedule)]).toEqual([schedule, undefined]);
    }
  });

  it('says why it refuses the rest, in the parser words', () => {
    expect(cronScheduleError('every day')).toBe('expected exactly 5 fields, found 2: [every day]');
    expect(cronScheduleError('0 0 0 * * *')).toBe(
      'expected exactly 5 fields, found 6: [0 0 0 * * *]',
    );
    expect(cronScheduleError('0 0 * * 7')).toBe('end of range (7) above maximum (6): 7');
    expect(cronScheduleError('60 * * * *')).toBe('end of range (60) above maximum (59): 60');
    expect(cronScheduleError('0 0 0 * *')).toBe('beginning of range (0) below minimum (1): 0');
    expect(cronScheduleError('0 10-2 * * *')).toBe(
      'beginning of range (10) beyond end of range (2): 10-2',
    );
    expect(cronScheduleError('*/0 * * * *')).toBe('step of range should be a positive number: */0');
    expect(cronScheduleError('1-2-3 * * * *')).toBe('too many hyphens: 1-2-3');
    expect(cronScheduleError('1/2/3 * * * *')).toBe('too many slashes: 1/2/3');
    expect(cronScheduleError('0 0 * JANUARY *')).toBe(
      'failed to parse int from JANUARY: strconv.Atoi: parsing "JANUARY": invalid syntax',
    );
    expect(cronScheduleError('-1 * * * *')).toBe(
      'failed to parse int from : strconv.Atoi: parsing "": invalid syntax',
    );
    expect(cronScheduleError('@weekdays')).toBe('unrecognized descriptor: @weekdays');
    expect(cronScheduleError('@every day')).toBe(
      'failed to parse duration @every day: time: invalid duration "day"',
    );
    expect(cronScheduleError('TZ=Mars/Olympus 0 5 * * *')).toBe(
      'provided bad location Mars/Olympus: unknown time zone Mars/Olympus',
    );
  });
});

describe('a time zone, as time.LoadLocation loads it', () => {
  it('knows the IANA names, legacy links included, in their own case only', () => {
    for (const zone of ['UTC', 'Europe/London', 'America/New_York', 'US/Pacific', 'Etc/GMT+5']) {
      expect([zone, timeZoneError(zone)]).toEqual([zone, undefined]);
    }
    expect(timeZoneError('Europe/Londn')).toBe('unknown time zone Europe/Londn');
    expect(timeZoneError('europe/london')).toBe('unknown time zone europe/london');
    expect(timeZoneError('utc')).toBe('unknown time zone utc');
  });
});

describe('a CronJob the API server admits (validateCronJobSpec, ValidateCronJobCreate)', () => {
  it('has a schedule that parses, without a time zone in it', () => {
    const findings = load(
      cronJob('  schedule: "0 0 * * 7"') +
        cronJob('  schedule: "CRON_TZ=UTC 0 5 * * *"', 'tz') +
        cronJob('  schedule: "@hourly"', 'hourly') +
        cronJob('  schedule: ""', 'empty'),
    );
    expect(findings.map((f) => [f.line, ...at(f)])).toEqual([
      [6, '/spec/schedule', 'Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7'],
      [
        18,
        '/spec/schedule',
        'Invalid value: "CRON_TZ=UTC 0 5 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
      [42, '/spec/schedule', 'Required value'],
    ]);
  });

  it('has a time zone of the database, not Local, and names it by the naming rules', () => {
    const findings = load(
      cronJob('  schedule: "0 5 * * *"\n  timeZone: Europe/Londn', 'a') +
        cronJob('  schedule: "0 5 * * *"\n  timeZone: Local', 'b') +
        cronJob('  schedule: "0 5 * * *"\n  timeZone: ../etc/passwd', 'c') +
        cronJob('  schedule: "0 5 * * *"\n  timeZone: America/Argentina/Buenos_Aires', 'd'),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/timeZone', 'Invalid value: "Europe/Londn": unknown time zone Europe/Londn'],
      [
        '/spec/timeZone',
        'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ],
      ['/spec/timeZone', 'Invalid value: "../etc/passwd": unknown time zone ../etc/passwd'],
    ]);
  });

  it('has no negative deadline or history limit, and a name its Jobs can extend', () => {
    const findings = load(
      cronJob(
        '  schedule: "0 5 * * *"\n  startingDeadlineSeconds: -1\n  successfulJobsHistoryLimit: 0\n  failedJobsHistoryLimit: -2',
        'x'.repeat(53),
      ) + cronJob('  schedule: "0 5 * * *"', 'x'.repeat(52)),
    );
    expect(findings.map(at)).toEqual([
      ['/metadata/name', `Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`],
      ['/spec/startingDeadlineSeconds', 'Invalid value: -1: must be greater than or equal to 0'],
      ['/spec/failedJobsHistoryLimit', 'Invalid value: -2: must be greater than or equal to 0'],
    ]);
  });

  it("checks its Job template's counts as a Job's", () => {
    const text = `apiVersion: batch/v1\nkind: CronJob\nmetadata: { name: c }\nspec:\n  schedule: "@daily"\n  jobTemplate:\n    spec:\n      backoffLimit: -1\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{ name: a, image: busybox }]\n`;
    expect(load(text).map(at)).toEqual([
      [
        '/spec/jobTemplate/spec/backoffLimit',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
    ]);
  });
});

describe('a Job the API server admits (validateJobSpec, ValidateJob)', () => {
  it('has a name that fits the job-name label the API server gives its pods (PrepareForCreate, ValidatePodTemplateSpec)', () => {
    const long = `my-release-keycloak-config-cli-${'x'.repeat(33)}`;
    expect(long.length).toBe(64);
    const text = job('  backoffLimit: 1', long);
    const findings = loadManifests([{ path: 'jobs.yaml', text }], {}).findings;
    expect(findings.map((f) => [f.code, f.pointer, f.message, f.line, f.col])).toEqual([
      [
        'schema-violation',
        '/metadata/name',
        `Invalid value: "${long}": must be no more than 63 bytes`,
        4,
        19,
      ],
    ]);
    // Before 1.35, apimachinery counted the length in characters.
    expect(load(text, '1.28').map(at)).toEqual([
      ['/metadata/name', `Invalid value: "${long}": must be no more than 63 characters`],
    ]);
  });

  it('takes a name of 63 characters, and a longer one with a manual selector', () => {
    expect(load(job('  backoffLimit: 1', 'x'.repeat(63)))).toEqual([]);
    const manual = job(
      '  manualSelector: true\n  selector: { matchLabels: { app: a } }',
      'x'.repeat(64),
    ).replace('  template:\n', '  template:\n    metadata: { labels: { app: a } }\n');
    expect(load(manual).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('has no negative count', () => {
    const findings = load(
      job(
        '  parallelism: -1\n  completions: 0\n  activeDeadlineSeconds: 0\n  ttlSecondsAfterFinished: -5',
      ),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/parallelism', 'Invalid value: -1: must be greater than or equal to 0'],
      ['/spec/ttlSecondsAfterFinished', 'Invalid value: -5: must be greater than or equal to 0'],
    ]);
  });

  it('keeps the fields of indexed completion to indexed Jobs', () => {
    const findings = load(
      job('  backoffLimitPerIndex: 1\n  maxFailedIndexes: 2', 'a') +
        job('  completionMode: Indexed\n  maxFailedIndexes: 2', 'b') +
        job(
          '  completionMode: Indexed\n  completions: 3\n  backoffLimitPerIndex: 1\n  maxFailedIndexes: 4',
          'c',
        ) +
        job('  completionMode: Indexed\n  completions: 5\n  backoffLimitPerIndex: 1', 'd') +
        job('  successPolicy: { rules: [{ succeededCount: 1 }] }', 'e'),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/backoffLimitPerIndex', 'Invalid value: 1: requires indexed completion mode'],
      ['/spec/maxFailedIndexes', 'Invalid value: 2: requires indexed completion mode'],
      ['/spec/backoffLimitPerIndex', 'Required value: when maxFailedIndexes is specified'],
      ['/spec/completions', 'Required value: when completion mode is Indexed'],
      ['/spec/maxFailedIndexes', 'Invalid value: 4: must be less than or equal to completions'],
      [
        '/spec/successPolicy',
        'Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
      ],
    ]);
  });

  it('drops the backoff limit per index before 1.29, as the API server drops a disabled field', () => {
    expect(load(job('  backoffLimitPerIndex: 1'), '1.28')).toEqual([]);
  });

  it("names an indexed Job so that its last pod's hostname is a DNS label", () => {
    const name = 'n'.repeat(60);
    const findings = load(
      job('  completionMode: Indexed\n  completions: 1000', name) +
        job('  completionMode: Indexed\n  completions: 10', 'm'.repeat(60)),
    );
    expect(findings.map(at)).toEqual([
      [
        '/metadata/name',
        `Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-999`,
      ],
    ]);
  });
});
