/**
 * The request budget of a load run: shared by the plans running in parallel, so it is global.
 * A plan reserves its requests before it starts; each request then takes one.
 */
export class RequestBudget {
  used = 0;
  reserved = 0;
  constructor(readonly limit: number) {}
  /** Reserves a whole plan's requests up front, so a plan never starts that cannot finish. */
  reserve(n: number, what: string): void {
    if (this.reserved + n > this.limit)
      throw new Error(
        `${what} needs ${n} requests but only ${this.limit - this.reserved} of the budget (${this.limit}) are left; raise --budget`,
      );
    this.reserved += n;
  }
  /** Takes one request; false once the budget is spent (the hard stop). */
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used += 1;
    return true;
  }
}
