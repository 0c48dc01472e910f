/**
 * What a component offers a component above it to plug in: the lower one
 * declares the interface and calls it, the upper one (which declares it uses
 * the lower) plugs its implementation in when it is built. Dependencies then
 * run one way (gateway/dependencies.ts), and nothing is looked up at call time.
 */
export class Port<T extends object> {
  private plugged: T | undefined;

  constructor(
    /** what the port stands for, for the error of one never plugged */
    private readonly what: string,
  ) {}

  plug(implementation: T): void {
    if (this.plugged) throw new Error(`${this.what} is plugged in twice`);
    this.plugged = implementation;
  }

  /** The implementation; an error when the component that offers it was never built. */
  get(): T {
    if (!this.plugged) throw new Error(`${this.what} is not plugged in: the component that offers it is not built in this process`);
    return this.plugged;
  }

  /** The implementation, or undefined while none is plugged. */
  get current(): T | undefined {
    return this.plugged;
  }
}
