// The ceiling's child processes (ceiling.mjs): the role processes and the receiver, forked from
// this folder, each one's readiness awaited, and stopped in order at the clean-up.
import { fork } from 'node:child_process';
import { say } from '../bench-kit.mjs';

const READY_TIMEOUT_MS = 90_000;

/**
 * Forks `file` (relative to this folder), named `name` in the CPU figures, and resolves to the
 * child and the first message it sends that `isReady` accepts. `run` is ceiling.mjs's state: the
 * child joins `run.children` (the order they stop: the load's side first), and exiting before the
 * clean-up (`run.stopping`) fails the measurement (`run.fail`). `stopBy`: a 'stop' message (the
 * roles) or closing its channel ('disconnect').
 */
export function startChild(run, name, file, argv, isReady, stopBy = 'message') {
  const child = fork(new URL(file, import.meta.url), argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  run.children.unshift({ name, child, stopBy });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} was not ready in ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    const onMessage = (message) => {
      if (!isReady(message)) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({ child, message });
    };
    child.on('message', onMessage);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (run.stopping) return;
      const error = new Error(`${name} exited (${signal ?? `code ${code}`})`);
      reject(error);
      run.fail(error);
    });
  });
}

/** Asks a child to stop (a role: 'stop'; the receiver: the channel closed), and kills it after 8 s. */
export async function stopChild({ name, child, stopBy }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (!child.connected) child.kill('SIGTERM');
  else if (stopBy === 'disconnect') child.disconnect();
  else child.send('stop');
  const timer = setTimeout(() => {
    say(`${name} did not stop in 8 s, killing it`);
    child.kill('SIGKILL');
  }, 8000);
  await exited;
  clearTimeout(timer);
}

/** Kills every child still running (the calling process is exiting). */
export function killChildren(children) {
  for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
