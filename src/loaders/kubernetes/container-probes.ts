/**
 * What the API server checks of a container's probes and lifecycle hooks in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateLivenessProbe`, `validateReadinessProbe`,
 * `validateStartupProbe`, `validateProbe`, `validateHandler`, `validateLifecycle`,
 * `validateInitContainers`): a probe or hook has exactly one handler (`exec`, `httpGet`,
 * `tcpSocket`, `grpc` for a probe; `sleep` instead of `grpc` for a hook), an `exec` a command,
 * a port is 1-65535 or a port name, a header name is a valid HTTP header; a probe's counts and
 * delays are not negative, a liveness or startup probe's `successThreshold` is 1, a readiness
 * probe has no `terminationGracePeriodSeconds` and any other's is above 0; an init container
 * that is not a sidecar (`restartPolicy: Always`) has neither probes nor hooks; a hook's `sleep`
 * lasts no longer than the pod's `terminationGracePeriodSeconds` (30 unless set), and more than 0
 * before Kubernetes 1.33 (`PodLifecycleSleepActionAllowZero`, on by default from 1.33). Each
 * problem at its field, in the API server's words.
 *
 * Zero counts are not checked: the API server defaults them first (`SetDefaults_Probe`:
 * `timeoutSeconds` 1, `periodSeconds` 10, `successThreshold` 1, `failureThreshold` 3), as it
 * defaults an `httpGet`'s empty path to `/` and scheme to `HTTP`.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { isOutOfPortRange, PORT_RANGE_MESSAGE, portNameProblems } from './container-checks.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { podSpecOf } from './pod-spec-paths.js';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;
const COUNTS = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
] as const;
const NOT_NEGATIVE = 'must be greater than or equal to 0';
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const HTTP_HEADER_NAME_MESSAGE =
  "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
const NOT_FOR_INIT = 'may not be set for init containers without restartPolicy=Always';
/** A pod's `terminationGracePeriodSeconds` when it has none (`SetDefaults_PodSpec`). */
const DEFAULT_GRACE_PERIOD = 30;
/** The first release whose API server takes a zero `sleep` by default. */
const ZERO_SLEEP_SINCE: KubernetesRelease = '1.33';

type Add = (path: (string | number)[], keyword: string, message: string) => void;

/**
 * The probe and hook problems of a built-in document of `group`/`kind` of `release` (none
 * without a pod).
 */
export function probeProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  const grace = spec.terminationGracePeriodSeconds;
  const sleep: SleepBound = {
    gracePeriod: grace === undefined || grace === null ? DEFAULT_GRACE_PERIOD : grace,
    zeroAllowed: releaseAtLeast(release, ZERO_SLEEP_SINCE),
  };
  // Ephemeral containers may not have probes or hooks at all (an allow-list of fields in Go,
  // not ported).
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container)) return;
      const at: Add = (path, keyword, message) => add([list, i, ...path], keyword, message);
      if (list === 'initContainers' && container.restartPolicy !== 'Always') {
        for (const field of ['lifecycle', ...PROBES]) {
          const value = container[field];
          if (value !== undefined && value !== null) {
            at([field], 'init-container', forbiddenValue(NOT_FOR_INIT));
          }
        }
        return;
      }
      const lifecycle = container.lifecycle;
      if (isPlainObject(lifecycle)) {
        for (const hook of ['postStart', 'preStop']) {
          const handler = lifecycle[hook];
          if (isPlainObject(handler)) {
            handlerProblems(
              handler,
              LIFECYCLE_HANDLERS,
              (p, k, m) => at(['lifecycle', hook, ...p], k, m),
              sleep,
            );
          }
        }
      }
      for (const probe of PROBES) {
        const value = container[probe];
        if (isPlainObject(value)) onProbe(probe, value, (p, k, m) => at([probe, ...p], k, m));
      }
    });
  }
  return problems;
}

/** `validateLivenessProbe`, `validateReadinessProbe`, `validateStartupProbe`. */
function onProbe(which: (typeof PROBES)[number], probe: Record<string, unknown>, add: Add): void {
  handlerProblems(probe, PROBE_HANDLERS, add);
  for (const count of COUNTS) {
    const value = probe[count];
    if (isInteger(value) && value < 0) add([count], 'probe', invalidValue(value, NOT_NEGATIVE));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (isInteger(grace) && grace <= 0) {
    add(['terminationGracePeriodSeconds'], 'probe', invalidValue(grace, 'must be greater than 0'));
  }
  if (which === 'readinessProbe') {
    if (grace !== undefined && grace !== null) {
      add(
        ['terminationGracePeriodSeconds'],
        'probe',
        invalidValue(grace, 'must not be set for readinessProbes'),
      );
    }
    return;
  }
  const success = probe.successThreshold;
  // 0 (or absent) is defaulted to 1.
  if (isInteger(success) && success !== 0 && success !== 1) {
    add(['successThreshold'], 'probe', invalidValue(success, 'must be 1'));
  }
}

/** What bounds a hook's `sleep`: the pod's grace period, and whether 0 is allowed. */
interface SleepBound {
  readonly gracePeriod: unknown;
  readonly zeroAllowed: boolean;
}

/** `validateHandler`: exactly one handler, each checked. */
function handlerProblems(
  handler: Record<string, unknown>,
  kinds: readonly string[],
  add: Add,
  sleep?: SleepBound,
): void {
  let handlers = 0;
  for (const kind of kinds) {
    const action = handler[kind];
    if (action === undefined || action === null) continue;
    if (handlers > 0) {
      add([kind], 'handler', forbiddenValue('may not specify more than 1 handler type'));
      continue;
    }
    handlers++;
    if (kind === 'sleep' && isPlainObject(action) && sleep !== undefined) {
      sleepProblems(action.seconds, sleep, (p, k, m) => add([kind, ...p], k, m));
    } else if (isPlainObject(action)) {
      actionProblems(kind, action, (p, k, m) => add([kind, ...p], k, m));
    }
  }
  if (handlers === 0) add([], 'handler', requiredValue('must specify a handler type'));
}

function actionProblems(kind: string, action: Record<string, unknown>, add: Add): void {
  switch (kind) {
    case 'exec': {
      const command = action.command;
      if (
        command === undefined ||
        command === null ||
        (Array.isArray(command) && command.length === 0)
      ) {
        add(['command'], 'required', requiredValue());
      }
      return;
    }
    case 'httpGet': {
      portProblems(action.port, (p, k, m) => add(['port', ...p], k, m));
      const headers = action.httpHeaders;
      if (!Array.isArray(headers)) return;
      for (const header of headers) {
        const name = isPlainObject(header) ? header.name : undefined;
        // Go reports a header at the list, not at the item.
        if (typeof name === 'string' && !HTTP_HEADER_NAME.test(name)) {
          add(['httpHeaders'], 'http-header', invalidValue(name, HTTP_HEADER_NAME_MESSAGE));
        }
      }
      return;
    }
    case 'tcpSocket':
      portProblems(action.port, (p, k, m) => add(['port', ...p], k, m));
      return;
    case 'grpc': {
      const port = action.port;
      if (isOutOfPortRange(port))
        add(['port'], 'port-range', invalidValue(port, PORT_RANGE_MESSAGE));
      return;
    }
    default:
      return;
  }
}

/**
 * `validateSleepAction`, reported at the `sleep` (not its `seconds`), as Go reports it; nothing
 * when the pod's grace period is itself invalid (the schema or Go reports that).
 */
function sleepProblems(seconds: unknown, bound: SleepBound, add: Add): void {
  const grace = bound.gracePeriod;
  if (!isInteger(seconds) || !isInteger(grace)) return;
  if (bound.zeroAllowed) {
    if (seconds < 0 || seconds > grace) {
      add(
        [],
        'sleep',
        invalidValue(
          seconds,
          `must be non-negative and less than terminationGracePeriodSeconds (${grace})`,
        ),
      );
    }
  } else if (seconds <= 0 || seconds > grace) {
    add(
      [],
      'sleep',
      invalidValue(
        seconds,
        `must be greater than 0 and less than terminationGracePeriodSeconds (${grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
      ),
    );
  }
}

/** `ValidatePortNumOrName`: a number 1-65535, or a valid port name. */
function portProblems(port: unknown, add: Add): void {
  if (isOutOfPortRange(port)) add([], 'port-range', invalidValue(port, PORT_RANGE_MESSAGE));
  else if (typeof port === 'string') {
    for (const message of portNameProblems(port)) add([], 'port-name', invalidValue(port, message));
  }
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
