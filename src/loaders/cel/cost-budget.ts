/**
 * Bounds on CEL evaluation, after the API server's: each evaluation of a rule may spend
 * {@link PER_CALL_COST_LIMIT}, and all the rules of one document together
 * {@link PER_DOCUMENT_COST_BUDGET} (`RuntimeCELCostBudget`). A hostile rule (comprehensions nested
 * over a large list) stops with a finding instead of hanging a CI job.
 *
 * What costs: each element a comprehension visits (every `all`, `exists`, `map`, `filter`, over
 * data or literals) costs the size of the loop's body (the rule compiler routes each
 * comprehension's range through the environment's iteration function), and the library
 * functions charge for the size of what they read (strings, lists). Work bounded by the rule's
 * own size is not counted.
 */

/** Cost one evaluation of one rule may spend (the API server's `PerCallLimit`). */
export const PER_CALL_COST_LIMIT = 1_000_000;

/** Cost all the rules of one document may spend together (`RuntimeCELCostBudget`). */
export const PER_DOCUMENT_COST_BUDGET = 10_000_000;

/** Thrown out of an evaluation that ran out of budget; the evaluator reports it. */
export class CostLimitError extends Error {
  constructor(readonly limit: 'rule' | 'document') {
    super(
      limit === 'rule'
        ? `the rule's evaluation cost exceeds the limit of ${PER_CALL_COST_LIMIT}`
        : `the rules of this document together exceed the cost budget of ${PER_DOCUMENT_COST_BUDGET}`,
    );
    this.name = 'CostLimitError';
  }
}

/** The budget of one document: each rule evaluation runs in {@link CostBudget.run}. */
export class CostBudget {
  #remaining: number;
  #call = 0;
  #callLimit: number;
  /** Set when a charge went over: the evaluator may have swallowed the throw. */
  #exceeded: CostLimitError | undefined;

  constructor(perDocument = PER_DOCUMENT_COST_BUDGET, perCall = PER_CALL_COST_LIMIT) {
    this.#remaining = perDocument;
    this.#callLimit = perCall;
  }

  /**
   * Runs one evaluation against this budget: what it charges counts against the rule's limit and
   * the document's budget. Returns the evaluation's result, or the limit it went over.
   */
  run<T>(evaluate: () => T): { value: T } | { exceeded: CostLimitError } {
    const outer = current;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the slot the library functions charge through
    current = this;
    this.#call = 0;
    this.#exceeded = undefined;
    try {
      const value = evaluate();
      const exceeded = this.#lastExceeded();
      return exceeded === undefined ? { value } : { exceeded };
    } catch (error) {
      if (error instanceof CostLimitError) return { exceeded: error };
      throw error;
    } finally {
      current = outer;
    }
  }

  /** The limit the last evaluation went over, if any (a charge may have been swallowed). */
  #lastExceeded(): CostLimitError | undefined {
    return this.#exceeded;
  }

  /** Spends `units`; throws {@link CostLimitError} past either bound. */
  charge(units: number): void {
    this.#call += units;
    this.#remaining -= units;
    if (this.#exceeded !== undefined) throw this.#exceeded;
    if (this.#call > this.#callLimit) throw (this.#exceeded = new CostLimitError('rule'));
    if (this.#remaining < 0) throw (this.#exceeded = new CostLimitError('document'));
  }
}

/**
 * The budget of the evaluation under way. Evaluation is synchronous, so one slot is enough; the
 * library functions, registered once in the shared environment, charge through it.
 */
let current: CostBudget | undefined;

/** Charges the evaluation under way (nothing outside one: a constant folded at compile time). */
export function charge(units: number): void {
  current?.charge(units);
}

/** Units for reading a string or list of `size`: one per ten, as the API server's traversal. */
export function sizeCost(size: number): number {
  return 1 + Math.ceil(size / 10);
}
