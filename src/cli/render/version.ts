/** The versions `cosi version` reports. */
export interface VersionFacts {
  readonly cosi: string;
  readonly engine: string;
  readonly node: string;
  readonly platform: string;
}

/** `cosi 0.1.0 (engine 0.1.0, node v22.0.0, linux/x64)`, or the facts as JSON. */
export function renderVersion(facts: VersionFacts, format: 'text' | 'json'): string {
  return format === 'json'
    ? `${JSON.stringify(facts, null, 2)}\n`
    : `cosi ${facts.cosi} (engine ${facts.engine}, node ${facts.node}, ${facts.platform})\n`;
}
