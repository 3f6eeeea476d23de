import { StatementPerTurn } from './statement-per-turn';

describe('StatementPerTurn', () => {
  it('runs the requests of one turn together, each answered with its own result', async () => {
    const runs: number[][] = [];
    const perTurn = new StatementPerTurn<number, number>(async (requests) => {
      runs.push(requests);
      return requests.map((request) => request * 10);
    });
    expect(await Promise.all([1, 2, 3].map((request) => perTurn.submit(request)))).toEqual([10, 20, 30]);
    expect(await perTurn.submit(4)).toBe(40);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a turn into statements of at most `max` requests', async () => {
    const runs: number[][] = [];
    const perTurn = new StatementPerTurn<number, number>(async (requests) => {
      runs.push(requests);
      return requests;
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((request) => perTurn.submit(request)))).toEqual([1, 2, 3, 4, 5]);
    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every request of a statement that fails, and only those', async () => {
    const perTurn = new StatementPerTurn<number, number>(async (requests) => {
      if (requests.includes(2)) throw new Error('connection lost');
      return requests;
    }, 2);
    const outcomes = await Promise.allSettled([1, 2, 3].map((request) => perTurn.submit(request)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(new Error('connection lost'));
  });
});
