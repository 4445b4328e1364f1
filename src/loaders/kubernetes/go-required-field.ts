/**
 * A required field a built-in object leaves out, as the API server's Go validation says it: at
 * the field, `Required value` (`field.Required`), with the detail a few of its checks add, and
 * the one check that finds the empty value instead (an owner reference's `uid`, which Go decodes
 * as `""`). Read from `pkg/apis/admissionregistration/validation`, `pkg/apis/networking/validation`,
 * `pkg/apis/rbac/validation` and apimachinery's `ValidateOwnerReferences`; an admission policy's
 * variables, validations and audit annotations and a binding's actions say what is not specified.
 */

/** What Go says of a missing `key` of the object at `path` (a built-in object's field path). */
export function goRequiredMessage(path: readonly string[], key: string): string {
  const parent = path.at(-2);
  if (key === 'sideEffects' && parent === 'webhooks') {
    // v1 webhooks take only the classes without side effects (`noSideEffectClasses`).
    return 'Required value: must specify one of None, NoneOnDryRun';
  }
  if (key === 'pathType' && parent === 'paths') {
    return 'Required value: pathType must be specified';
  }
  if (key === 'validationActions' && path.length === 1 && path[0] === 'spec') {
    // A ValidatingAdmissionPolicyBinding's (`validateValidationActions`).
    return 'Required value: at least one validation action is required';
  }
  if (key === 'expression' && (parent === 'validations' || parent === 'variables')) {
    return 'Required value: expression is not specified';
  }
  if (key === 'name' && parent === 'variables') return 'Required value: name is not specified';
  if (key === 'valueExpression' && parent === 'auditAnnotations') {
    return 'Required value: valueExpression is not specified';
  }
  if (key === 'verbs' && parent === 'rules') {
    // A Role's or a ClusterRole's rule (`ValidatePolicyRule`).
    return 'Required value: verbs must contain at least one value';
  }
  if (key === 'uid' && parent === 'ownerReferences') {
    return 'Invalid value: "": uid must not be empty';
  }
  return 'Required value';
}
