import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');
/** `npm ci`, the build and the stack's start of a clone with nothing installed, on a loaded 2-core machine. */
const READY_WITHIN_MS = 8 * 60_000;
/** Ctrl-C to everything stopped. */
const STOPPED_WITHIN_MS = 60_000;
/**
 * The clone's ports: `npm start`'s, shifted clear of a developer's own `npm start` and of the test
 * stack beside it (README, "Ports").
 */
const PORT_OFFSET = Number(process.env.TRILHA_PORT_OFFSET ?? 0) + 500;
/** A user's shell: this process's environment without what jest and the test stack add. */
const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['NODE_ENV', 'JEST_WORKER_ID', 'TRILHA_STACK_FILE'].includes(name)));

/** Resolves with the process's exit code, or null if it is still running after `ms`. */
function exited(child: ReturnType<typeof spawn>, ms: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((done) => {
    const timer = setTimeout(() => done(null), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done(code ?? 1);
    });
  });
}

describe('a fresh clone (what a new user checks out)', () => {
  it('is left as it was by npm start: once Trilha is ready, git status shows nothing', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'trilha-clone-'));
    execFileSync('git', ['clone', '--quiet', root, clone]);
    // Its own process group, so the Ctrl-C below reaches it as a terminal's would.
    const start = spawn('npm', ['start'], { cwd: clone, detached: true, env: { ...USER_ENV, TRILHA_PORT_OFFSET: String(PORT_OFFSET) } });
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    const ready = new Promise<boolean>((done) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Trilha is ready')) done(true);
      };
      start.stdout.on('data', read);
      start.stderr.on('data', read);
      start.once('exit', () => done(false));
      timer = setTimeout(() => done(false), READY_WITHIN_MS);
    });
    try {
      if (!(await ready)) throw new Error(`npm start ended, or did not reach "Trilha is ready" within ${READY_WITHIN_MS / 1000} s:\n${output.slice(-10_000)}`);
      expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: clone, encoding: 'utf8' })).toBe('');
    } finally {
      clearTimeout(timer);
      const running = start.exitCode === null && start.signalCode === null;
      if (running) process.kill(-start.pid!, 'SIGINT');
      const code = await exited(start, STOPPED_WITHIN_MS);
      // What ignored Ctrl-C is killed; the stack's infrastructure follows its parent (setpriv --pdeathsig).
      if (code === null) process.kill(-start.pid!, 'SIGKILL');
      rmSync(clone, { recursive: true, force: true });
      if (code === null) throw new Error(`npm start did not stop within ${STOPPED_WITHIN_MS / 1000} s of Ctrl-C:\n${output.slice(-10_000)}`);
    }
  }, READY_WITHIN_MS + STOPPED_WITHIN_MS + 60_000);
});
