/**
 * The service clock. Everything time-dependent in the reference deployment — token buckets,
 * `Date` and `X-RateLimit-Reset` headers, SLA due times and the at-risk sweep — reads this one
 * clock, so tests can run minute-long behaviour in seconds (`scale`) or jump ahead (`advance`).
 */
export interface Clock {
  /** Milliseconds since the epoch, on the service's time line. */
  now(): number;
}

export interface ServiceClockOptions {
  /** Service seconds per real second. Default 1 (real time). */
  scale?: number;
  /** Real time source, injectable for tests. Default `Date.now`. */
  source?: () => number;
}

export class ServiceClock implements Clock {
  readonly scale: number;
  private readonly source: () => number;
  private readonly origin: number;
  private offsetMs = 0;

  constructor(opts: ServiceClockOptions = {}) {
    this.scale = opts.scale ?? 1;
    if (!(this.scale > 0) || !Number.isFinite(this.scale)) {
      throw new Error(`clock scale must be a positive number, got ${opts.scale}`);
    }
    this.source = opts.source ?? Date.now;
    this.origin = this.source();
  }

  now(): number {
    return this.origin + (this.source() - this.origin) * this.scale + this.offsetMs;
  }

  /** Jumps the service clock forward (admin clock control). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`can only advance the clock forward, got ${ms} ms`);
    this.offsetMs += ms;
  }

  /** Converts a service-time duration into real milliseconds (for timers). */
  toRealMs(serviceMs: number): number {
    return serviceMs / this.scale;
  }
}
