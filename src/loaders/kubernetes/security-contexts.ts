/**
 * What the API server checks of a pod's and its containers' security contexts in Go
 * (k8s.io/kubernetes `pkg/apis/core/validation`: `validatePodSpecSecurityContext`,
 * `ValidateSecurityContext`, `validateSeccompProfileField`, `ValidateAppArmorProfileField`,
 * `validateSysctls`, `validateWindowsSecurityContextOptions`, `validateHostUsers`,
 * `validateLinux`, `validateWindows`), beyond the OpenAPI's closed sets: user and group ids
 * 0-2147483647, a `Localhost` seccomp or AppArmor profile names its local profile (and only
 * then), sysctl names valid and unique and not of a namespace the pod shares with the host,
 * `Unmasked` `/proc` only in a user namespace, `allowPrivilegeEscalation: false` neither with
 * `privileged: true` nor with `CAP_SYS_ADMIN` added, Windows options well formed, and the fields
 * a pod of `spec.os.name` may not set. Each problem at its field, in the API server's words.
 *
 * Left to the cluster: `privileged: true` (refused only where the API server runs without
 * `--allow-privileged`) and `runAsNonRoot: true` with `runAsUser: 0`, which the API server
 * accepts (the kubelet refuses to start such a container).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  duplicateValue,
  forbiddenValue,
  invalidStructValue,
  invalidValue,
  requiredValue,
  unsupportedValue,
} from './go-field-error.js';
import { localDescendingPathProblems } from './local-descending-path.js';
import type { Add } from './label-syntax.js';
import { dns1123SubdomainProblems } from './label-syntax.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { CONTAINER_LISTS, podSpecOf } from './pod-spec-paths.js';

const ID_RANGE_MESSAGE = 'must be between 0 and 2147483647, inclusive';
const SYSCTL_FORMAT = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const SYSCTL_NAME = new RegExp(SYSCTL_FORMAT);
const SYSCTL_MESSAGE = `must have at most 253 characters and match regex ${SYSCTL_FORMAT}`;
const SE_LINUX_CHANGE_POLICIES = ['MountOption', 'Recursive'];
const WINDOWS_POD = 'cannot be set for a windows pod';
const LINUX_POD = 'windows options cannot be set for a linux pod';
/** Pod security context fields a Windows pod may not set, in `validateWindows`'s order. */
const NOT_FOR_WINDOWS_POD = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'fsGroup',
  'fsGroupChangePolicy',
  'sysctls',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
  'supplementalGroupsPolicy',
  'seLinuxChangePolicy',
];
/** Container security context fields a Windows pod's containers may not set, in Go's order. */
const NOT_FOR_WINDOWS_CONTAINER = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
];
const NET_BIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_DOMAIN =
  /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const USER_NAME_CHARACTERS = /["/\\:;|=,+*?<>@[\]]/;

/** Whether a field is set: Go's pointer is not nil. */
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * The first release whose API server keeps a pod's `hostUsers` and a container's `procMount` by
 * default (`UserNamespacesSupport` and `ProcMountType`, on by default from 1.33; before, the
 * fields are dropped on create and never validated).
 */
const USER_NAMESPACES_SINCE: KubernetesRelease = '1.33';
/** The first release with AppArmor profile fields (before, the OpenAPI reports them unknown). */
const APP_ARMOR_SINCE: KubernetesRelease = '1.30';

/** The security context problems of a built-in document of `group`/`kind` of `release`. */
export function securityContextProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  const context = isPlainObject(spec.securityContext) ? spec.securityContext : undefined;
  const userNamespaces = releaseAtLeast(release, USER_NAMESPACES_SINCE);
  const appArmor = releaseAtLeast(release, APP_ARMOR_SINCE);
  // `hostUsers` defaults to true: the pod shares the host's user namespace.
  const hostUsers = !userNamespaces || spec.hostUsers !== false;
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container) || !isPlainObject(container.securityContext)) return;
      containerContextProblems(
        container.securityContext,
        userNamespaces && hostUsers,
        appArmor,
        (path, keyword, message) => add([list, i, 'securityContext', ...path], keyword, message),
      );
    });
  }
  podContextProblems(spec, context ?? {}, appArmor, add);
  if (userNamespaces) hostUsersProblems(spec, add);
  osProblems(spec, context, userNamespaces, add);
  return problems;
}

/**
 * `validatePodSpecSecurityContext`. The API server's internal pod spec always has a security
 * context: it holds `hostNetwork`, `hostPID`, `hostIPC`, `hostUsers` and `shareProcessNamespace`,
 * which a manifest writes in the pod spec itself.
 */
function podContextProblems(
  spec: Record<string, unknown>,
  context: Record<string, unknown>,
  appArmor: boolean,
  add: Add,
): void {
  const at: Add = (path, keyword, message) => add(['securityContext', ...path], keyword, message);
  idProblems(context, ['fsGroup', 'runAsUser', 'runAsGroup'], at);
  if (Array.isArray(context.supplementalGroups)) {
    context.supplementalGroups.forEach((id: unknown, g) => {
      if (isOutOfIdRange(id))
        at(['supplementalGroups', g], 'id-range', invalidValue(id, ID_RANGE_MESSAGE));
    });
  }
  // The internal API keeps these two in the security context; the finding points at them as written.
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    add(
      ['shareProcessNamespace'],
      'security-context',
      invalidValue(true, 'ShareProcessNamespace and HostPID cannot both be enabled'),
    );
  }
  if (Array.isArray(context.sysctls)) sysctlProblems(spec, context.sysctls, at);
  seccompProblems(context.seccompProfile, at);
  windowsOptionsProblems(context.windowsOptions, at);
  if (appArmor) appArmorProblems(context.appArmorProfile, at);
  const policy = context.seLinuxChangePolicy;
  if (typeof policy === 'string' && !SE_LINUX_CHANGE_POLICIES.includes(policy)) {
    at(['seLinuxChangePolicy'], 'enum', unsupportedValue(policy, SE_LINUX_CHANGE_POLICIES));
  }
}

/** `ValidateSecurityContext` of a container. */
function containerContextProblems(
  context: Record<string, unknown>,
  refuseUnmasked: boolean,
  appArmor: boolean,
  add: Add,
): void {
  idProblems(context, ['runAsUser', 'runAsGroup'], add);
  if (context.procMount === 'Unmasked' && refuseUnmasked) {
    add(
      ['procMount'],
      'security-context',
      invalidValue('Unmasked', '`hostUsers` must be false to use `Unmasked`'),
    );
  }
  seccompProblems(context.seccompProfile, add);
  if (context.allowPrivilegeEscalation === false) {
    if (context.privileged === true) {
      add(
        [],
        'security-context',
        invalidStructValue(
          context,
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        ),
      );
    }
    const capabilities = isPlainObject(context.capabilities) ? context.capabilities.add : undefined;
    for (const capability of Array.isArray(capabilities) ? capabilities : []) {
      if (capability === 'CAP_SYS_ADMIN') {
        add(
          [],
          'security-context',
          invalidStructValue(
            context,
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
          ),
        );
      }
    }
  }
  windowsOptionsProblems(context.windowsOptions, add);
  if (appArmor) appArmorProblems(context.appArmorProfile, add);
}

/** A user or group id outside 0-2147483647 (one that is no int64 is the schema's `format`'s). */
function isOutOfIdRange(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && (id < 0 || id > 2147483647);
}

/** `IsValidUserID`, `IsValidGroupID` of each of `fields`. */
function idProblems(context: Record<string, unknown>, fields: string[], add: Add): void {
  for (const field of fields) {
    const id = context[field];
    if (isOutOfIdRange(id)) add([field], 'id-range', invalidValue(id, ID_RANGE_MESSAGE));
  }
}

/** `validateSeccompProfileField`, its type's closed set aside (the OpenAPI's). */
function seccompProblems(profile: unknown, addTo: Add): void {
  if (!isPlainObject(profile)) return;
  const add: Add = (path, keyword, message) => addTo(['seccompProfile', ...path], keyword, message);
  const local = profile.localhostProfile;
  if (profile.type === 'Localhost') {
    if (!isSet(local)) {
      add(
        ['localhostProfile'],
        'required',
        requiredValue('must be set when seccomp type is Localhost'),
      );
    } else if (typeof local === 'string') {
      localDescendingPathProblems(local, (message) =>
        add(['localhostProfile'], 'security-context', invalidValue(local, message)),
      );
    }
  } else if (isSet(local)) {
    add(
      ['localhostProfile'],
      'security-context',
      invalidStructValue(profile, 'can only be set when seccomp type is Localhost'),
    );
  }
}

/** `ValidateAppArmorProfileField`, its type's closed set aside (the OpenAPI's). */
function appArmorProblems(profile: unknown, addTo: Add): void {
  if (!isPlainObject(profile)) return;
  const add: Add = (path, keyword, message) =>
    addTo(['appArmorProfile', ...path], keyword, message);
  const local = profile.localhostProfile;
  if (profile.type === 'Localhost') {
    if (!isSet(local)) {
      add(
        ['localhostProfile'],
        'required',
        requiredValue('must be set when AppArmor type is Localhost'),
      );
      return;
    }
    if (typeof local !== 'string') return;
    if (local.trim() !== local) {
      add(
        ['localhostProfile'],
        'security-context',
        invalidValue(local, 'must not be padded with whitespace'),
      );
    } else if (local === '') {
      add(
        ['localhostProfile'],
        'required',
        requiredValue('must be set when AppArmor type is Localhost'),
      );
    }
    if (Buffer.byteLength(local) > 4095) {
      add(['localhostProfile'], 'security-context', 'Too long: may not be more than 4095 bytes');
    }
  } else if ((profile.type === 'RuntimeDefault' || profile.type === 'Unconfined') && isSet(local)) {
    add(
      ['localhostProfile'],
      'security-context',
      invalidValue(local, 'can only be set when AppArmor type is Localhost'),
    );
  }
}

/** `validateSysctls` and `ValidateHostSysctl`. */
function sysctlProblems(spec: Record<string, unknown>, sysctls: unknown[], add: Add): void {
  const names = new Set<string>();
  sysctls.forEach((sysctl: unknown, i) => {
    if (!isPlainObject(sysctl) || typeof sysctl.name !== 'string') return;
    const name = sysctl.name;
    const at = ['sysctls', i, 'name'];
    if (name === '') add(at, 'required', requiredValue());
    else if (name.length > 253 || !SYSCTL_NAME.test(name)) {
      add(at, 'sysctl', invalidValue(name, SYSCTL_MESSAGE));
    } else if (names.has(name)) add(at, 'duplicate', duplicateValue(name));
    const namespace = sysctlNamespace(name);
    if (spec.hostNetwork === true && namespace === 'net') {
      add(at, 'sysctl', invalidValue(name, "may not be specified when 'hostNetwork' is true"));
    } else if (spec.hostIPC === true && namespace === 'ipc') {
      add(at, 'sysctl', invalidValue(name, "may not be specified when 'hostIPC' is true"));
    }
    names.add(name);
  });
}

/**
 * The namespace of a sysctl (component-helpers `GetNamespace`): a name written with `/` as its
 * separator (`net/ipv4/ip_forward`) is read with its dots and slashes swapped.
 */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const separator = /[./]/.exec(name)?.[0];
  const dotted = separator === '/' ? name.replace(/[./]/g, (c) => (c === '/' ? '.' : '/')) : name;
  if (dotted.startsWith('net.')) return 'net';
  if (
    dotted === 'kernel.sem' ||
    dotted.startsWith('kernel.shm') ||
    dotted.startsWith('kernel.msg') ||
    dotted.startsWith('fs.mqueue.')
  ) {
    return 'ipc';
  }
  return undefined;
}

/** `validateWindowsSecurityContextOptions`. */
function windowsOptionsProblems(options: unknown, add: Add): void {
  if (!isPlainObject(options)) return;
  const at: Add = (path, keyword, message) => add(['windowsOptions', ...path], keyword, message);
  const specName = options.gmsaCredentialSpecName;
  if (typeof specName === 'string') {
    for (const message of dns1123SubdomainProblems(specName)) {
      at(['gmsaCredentialSpecName'], 'security-context', invalidValue(specName, message));
    }
  }
  const credentialSpec = options.gmsaCredentialSpec;
  if (typeof credentialSpec === 'string') {
    if (credentialSpec === '') {
      at(
        ['gmsaCredentialSpec'],
        'security-context',
        invalidValue('', 'gmsaCredentialSpec cannot be an empty string'),
      );
    } else if (Buffer.byteLength(credentialSpec) > 64 * 1024) {
      at(
        ['gmsaCredentialSpec'],
        'security-context',
        invalidValue(credentialSpec, 'gmsaCredentialSpec size must be under 64 KiB'),
      );
    }
  }
  const userName = options.runAsUserName;
  if (typeof userName === 'string') {
    for (const message of runAsUserNameProblems(userName)) {
      at(['runAsUserName'], 'security-context', invalidValue(userName, message));
    }
  }
}

/** The messages of `validateWindowsSecurityContextOptions` for `runAsUserName`. */
function runAsUserNameProblems(name: string): string[] {
  if (name === '') return ['runAsUserName cannot be an empty string'];
  if (hasAsciiControl(name)) return ['runAsUserName cannot contain control characters'];
  const parts = name.split('\\');
  if (parts.length > 2) return ['runAsUserName cannot contain more than one backslash'];
  const problems: string[] = [];
  const [domain, user] =
    parts.length === 1 ? ['', parts[0] ?? ''] : [parts[0] ?? '', parts[1] ?? ''];
  if (Buffer.byteLength(domain) >= 256) {
    problems.push("runAsUserName's Domain length must be under 256 characters");
  }
  if (parts.length === 2 && !NET_BIOS_DOMAIN.test(domain) && !DNS_DOMAIN.test(domain)) {
    problems.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  }
  if (user === '') problems.push("runAsUserName's User cannot be empty");
  else if (Buffer.byteLength(user) > 104) {
    problems.push("runAsUserName's User length must not be longer than 104 characters");
  }
  if (/^[. ]+$/.test(user))
    problems.push("runAsUserName's User cannot contain only periods or spaces");
  if (USER_NAME_CHARACTERS.test(user)) {
    problems.push(
      `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`,
    );
  }
  return problems;
}

/** Whether a string holds one of Go's `[[:cntrl:]]`: an ASCII control character or DEL. */
function hasAsciiControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** `validateHostUsers`: a pod in its own user namespace shares no other namespace with the host. */
function hostUsersProblems(spec: Record<string, unknown>, add: Add): void {
  if (spec.hostUsers !== false) return;
  // Go names the last two `HostPID` and `HostIPC`; the findings point at the fields as written.
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (spec[field] === true) {
      add([field], 'security-context', forbiddenValue('when `pod.Spec.HostUsers` is false'));
    }
  }
}

/** `validateLinux` and `validateWindows`: what a pod of `spec.os.name` may not set. */
function osProblems(
  spec: Record<string, unknown>,
  context: Record<string, unknown> | undefined,
  userNamespaces: boolean,
  add: Add,
): void {
  const os = isPlainObject(spec.os) ? spec.os.name : undefined;
  if (os !== 'linux' && os !== 'windows') return;
  const containerContexts: [(string | number)[], Record<string, unknown>][] = [];
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (isPlainObject(container) && isPlainObject(container.securityContext)) {
        containerContexts.push([[list, i, 'securityContext'], container.securityContext]);
      }
    });
  }
  if (os === 'linux') {
    if (isSet(context?.windowsOptions)) {
      add(['securityContext', 'windowsOptions'], 'os', forbiddenValue(LINUX_POD));
    }
    for (const [at, sc] of containerContexts) {
      if (isSet(sc.windowsOptions)) add([...at, 'windowsOptions'], 'os', forbiddenValue(LINUX_POD));
    }
    return;
  }
  if (context !== undefined) {
    for (const field of NOT_FOR_WINDOWS_POD) {
      if (isSet(context[field])) {
        add(['securityContext', field], 'os', forbiddenValue(WINDOWS_POD));
      }
    }
  }
  if (userNamespaces && isSet(spec.hostUsers)) {
    add(['hostUsers'], 'os', forbiddenValue(WINDOWS_POD));
  }
  for (const field of ['hostPID', 'hostIPC']) {
    if (spec[field] === true) add([field], 'os', forbiddenValue(WINDOWS_POD));
  }
  if (isSet(spec.shareProcessNamespace)) {
    add(['shareProcessNamespace'], 'os', forbiddenValue(WINDOWS_POD));
  }
  for (const [at, sc] of containerContexts) {
    for (const field of NOT_FOR_WINDOWS_CONTAINER) {
      if (isSet(sc[field])) add([...at, field], 'os', forbiddenValue(WINDOWS_POD));
    }
  }
}
