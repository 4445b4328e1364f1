/** Findings reported per document; past this, they are only counted. */
export const MAX_FINDINGS_PER_DOCUMENT = 100;
