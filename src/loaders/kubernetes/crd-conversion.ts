/**
 * What the API server checks of a CustomResourceDefinition's `spec.conversion` and list kind in
 * Go (apiextensions-apiserver `pkg/apis/apiextensions/validation`:
 * `validateCustomResourceConversion`, `ValidateCustomResourceDefinitionNames`): a `Webhook`
 * strategy has a webhook with a client config (exactly one of an https URL and a service, as an
 * admission webhook's) and review versions that include `v1` or `v1beta1`; any other strategy
 * has neither; the list kind is not the kind. Each problem at its field (a missing one at what
 * would hold it), in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import { jsonPointer } from '../json-pointer.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { clientConfigProblems, reviewVersionProblems } from './webhook-configurations.js';

/** A problem of a CRD: its pointer and message. */
export interface CrdProblem {
  readonly pointer: string;
  readonly message: string;
}

/** The conversion and list kind problems of a CRD's `spec`. */
export function crdConversionProblems(spec: Record<string, unknown>): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const add = (path: (string | number)[], _keyword: string, message: string): void => {
    problems.push({ pointer: jsonPointer(['spec', ...path]), message });
  };
  const names = isPlainObject(spec.names) ? spec.names : {};
  if (
    typeof names.listKind === 'string' &&
    names.listKind !== '' &&
    names.listKind === names.kind
  ) {
    add(
      ['names', 'listKind'],
      'list-kind',
      invalidValue(names.listKind, 'kind and listKind may not be the same'),
    );
  }
  const conversion = spec.conversion;
  if (!isPlainObject(conversion)) return problems;
  const webhook = isPlainObject(conversion.webhook) ? conversion.webhook : undefined;
  const clientConfig = isPlainObject(webhook?.clientConfig) ? webhook.clientConfig : undefined;
  const versions = Array.isArray(webhook?.conversionReviewVersions)
    ? (webhook.conversionReviewVersions as unknown[])
    : [];
  if (conversion.strategy === 'Webhook') {
    if (clientConfig === undefined) {
      add(
        webhook === undefined ? ['conversion'] : ['conversion', 'webhook'],
        'required',
        `${requiredValue('required when strategy is set to Webhook')} (${webhook === undefined ? 'webhook.' : ''}clientConfig)`,
      );
    } else {
      clientConfigProblems(clientConfig, (path, keyword, message) =>
        add(['conversion', 'webhook', 'clientConfig', ...path], keyword, message),
      );
    }
    if (versions.length === 0) {
      add(
        webhook === undefined ? ['conversion'] : ['conversion', 'webhook'],
        'required',
        `${requiredValue()} (${webhook === undefined ? 'webhook.' : ''}conversionReviewVersions)`,
      );
    } else {
      reviewVersionProblems(versions, (path, keyword, message) =>
        add(['conversion', 'webhook', 'conversionReviewVersions', ...path], keyword, message),
      );
    }
  } else {
    if (clientConfig !== undefined) {
      add(
        ['conversion', 'webhook', 'clientConfig'],
        'forbidden',
        forbiddenValue('should not be set when strategy is not set to Webhook'),
      );
    }
    if (versions.length > 0) {
      add(
        ['conversion', 'webhook', 'conversionReviewVersions'],
        'forbidden',
        forbiddenValue('should not be set when strategy is not set to Webhook'),
      );
    }
  }
  return problems;
}
