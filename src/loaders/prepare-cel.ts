/**
 * The CEL a read may need, loaded before its synchronous load: the rule engine (`cel/cel-rules.ts`)
 * and the CEL side of kro RGDs (`kro/graph-cel-loader.ts`). The two loaders stay apart: the rule
 * engine knows nothing of kro, and an RGD's outputs are checked against their kinds' rules, so a
 * file that may hold an RGD loads both.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import { prepareCelRules } from './cel/cel-rules.js';
import { prepareGraphCel } from './kro/graph-cel-loader.js';

/** Loads what CEL the `texts` about to be parsed and the given `definitions` may need. */
export async function prepareCel(
  texts: readonly string[],
  definitions: readonly ResourceDefinition[] = [],
): Promise<void> {
  const graphs = await prepareGraphCel(texts);
  await prepareCelRules(texts, definitions, graphs);
}
