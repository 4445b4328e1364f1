/** The formats of a check report, `cosi check`'s and `cosi test`'s: a module of its own, so that
 * the commands' definitions (help, completion) name them without loading the renderers. */
export const CHECK_REPORT_FORMATS = ['text', 'json', 'junit', 'tap', 'github'] as const;
export type CheckReportFormat = (typeof CHECK_REPORT_FORMATS)[number];
