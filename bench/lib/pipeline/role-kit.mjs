// What each role process of bench/pipeline-ceiling.mjs shares: its settings (one JSON argument
// from the parent), a bounded lifetime, and the parent's messages. A role ignores SIGINT (a
// terminal's Ctrl-C reaches the whole process group; the parent decides the order of shutdown),
// stops on the parent's 'stop', and exits at once if the parent goes away.
//   argv: <settings as JSON>

export function roleKit(name) {
  const settings = JSON.parse(process.argv[2]);
  const log = (line) => process.stderr.write(`» ${name}: ${line}\n`);
  process.on('SIGINT', () => undefined);
  process.on('disconnect', () => process.exit(0));
  // However the parent fares, a role never outlives its lifetime.
  setTimeout(() => {
    log(`lifetime of ${settings.lifetimeSeconds} s reached, exiting`);
    process.exit(3);
  }, settings.lifetimeSeconds * 1000).unref();
  const fail = (error) => {
    log(`failed: ${error.stack ?? error.message}`);
    process.exit(1);
  };
  process.on('unhandledRejection', fail);
  return {
    settings,
    log,
    fail,
    /** Tells the parent the role is ready, with anything it needs (a port). */
    ready: (info = {}) => process.send({ ready: true, ...info }),
    /** Runs `close()` (bounded to 5 s) and exits when the parent says 'stop'. */
    onStop(close) {
      process.on('message', (message) => {
        if (message !== 'stop') return;
        setTimeout(() => process.exit(0), 5000).unref();
        Promise.resolve().then(close).catch(() => undefined).finally(() => process.exit(0));
      });
    },
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
