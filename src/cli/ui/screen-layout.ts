/** How many lines each part of the watch screen gets. */
export interface ScreenLayout {
  /** The whole screen: one line short of the terminal, so ink redraws in place. */
  readonly height: number;
  /** 1: the round and its verdict; 2: its counts too. */
  readonly header: number;
  readonly findings: number;
  readonly filter: number;
  /** The resources, a detail or the help. */
  readonly body: number;
  readonly controllers: number;
  readonly footer: number;
}

/** What the parts would take, given the room. */
export interface LayoutWants {
  readonly findings: number;
  readonly controllers: number;
  readonly filter: boolean;
}

/** The most lines the findings take; more are counted. */
export const MAX_FINDING_LINES = 6;
/** The body's lines before the findings and the controllers get any. */
const BODY_FIRST = 3;

/**
 * The lines of each part of the screen for a terminal of `rows` lines. Whatever the height, the
 * sum is the screen's height (never more, or the terminal scrolls the header away) and the first
 * line is the round and its verdict; then, as room allows, a line of the body, the footer, the
 * round's counts, a few more lines of body, the filter, the findings and the controllers; the
 * body gets the rest.
 */
export function screenLayout(rows: number, wants: LayoutWants): ScreenLayout {
  const height = Math.max(rows - 1, 1);
  let left = height - 1;
  const take = (n: number): number => {
    const got = Math.max(Math.min(n, left), 0);
    left -= got;
    return got;
  };
  let body = take(1);
  const footer = take(1);
  const header = 1 + take(1);
  body += take(BODY_FIRST - body);
  const filter = wants.filter ? take(1) : 0;
  const findings = take(Math.min(wants.findings, MAX_FINDING_LINES));
  // A panel is its title and at least one controller.
  const panel = Math.min(wants.controllers + 1, Math.max(3, Math.floor(height / 4)), left);
  const controllers = wants.controllers > 0 && panel >= 2 ? take(panel) : 0;
  body += take(left);
  return { height, header, findings, filter, body, controllers, footer };
}
