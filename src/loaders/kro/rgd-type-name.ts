/**
 * A kro ResourceGraphDefinition is loaded as the kind it defines and that kind's controller, not
 * as a resource: a type name that means the RGD itself (`ResourceGraphDefinition`, `rgd`, as
 * kubectl takes them) is unknown, and its did-you-mean (`rd`, `resourcedefinition`) would point
 * at an unrelated type.
 */
const RGD_NAMES = new Set([
  'resourcegraphdefinition',
  'resourcegraphdefinitions',
  'resourcegraphdefinition.kro.run',
  'resourcegraphdefinitions.kro.run',
  'rgd',
  'rgds',
]);

/**
 * What to say of an unknown type name that names kro's ResourceGraphDefinition, or `undefined`
 * for any other name.
 *
 * @example
 * rgdTypeNote('rgd') // 'a kro ResourceGraphDefinition is not a resource in cosi: ...'
 */
export function rgdTypeNote(typeName: string): string | undefined {
  if (!RGD_NAMES.has(typeName.toLowerCase())) return undefined;
  return (
    'a kro ResourceGraphDefinition is not a resource in cosi: it is loaded as the kind it ' +
    "defines (`cosi get rd` lists it) and that kind's controller, so the RGD is not there to " +
    'get, edit or destroy; a `cosi test` scenario can expect it, with the status kro writes ' +
    '(state, topologicalOrder, conditions), or check its instances and what they render'
  );
}
