interface Queued<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Sends the requests that reach it in one turn of the event loop to PostgreSQL together: `run`
 * gets up to `max` of them, runs them as one statement and answers each one's result, in their
 * order. Under load many requests arrive in the same turn, and each statement's round trip wakes
 * an idle PostgreSQL backend: on a small machine that wake-up is the largest part of a simple
 * request's CPU, PostgreSQL's included. A request alone is a turn of one, the same statement.
 * If the statement fails, each of its requests fails with its error. Nothing runs on a
 * request's behalf but the statement: each caller resumes in its own context with its result.
 */
export class StatementPerTurn<Request, Result> {
  private turn: Queued<Request, Result>[] = [];

  constructor(
    private readonly run: (requests: Request[]) => Promise<Result[]>,
    private readonly max = 100,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      if (this.turn.push({ request, resolve, reject }) === 1) setImmediate(() => this.send());
    });
  }

  private send(): void {
    const turn = this.turn;
    this.turn = [];
    for (let start = 0; start < turn.length; start += this.max) void this.runTogether(turn.slice(start, start + this.max));
  }

  private async runTogether(queued: Queued<Request, Result>[]): Promise<void> {
    try {
      const results = await this.run(queued.map(({ request }) => request));
      queued.forEach(({ resolve }, index) => resolve(results[index]));
    } catch (error) {
      for (const { reject } of queued) reject(error);
    }
  }
}
