import path from 'node:path';
import { pino } from 'pino';
import { readConfig } from './config';
import { loadSecrets } from './lib/secrets';
import { supervise } from './supervisor';

/**
 * `npm run start:cluster`: WORKERS server processes (main.ts) on one port, each restarted when
 * it dies. The secrets are created here first, so workers starting together cannot each
 * generate their own.
 */
async function primary() {
  const config = readConfig();
  const log = pino({ level: config.logLevel });
  await loadSecrets(config.dataDir);
  const supervisor = supervise({
    workers: config.workers,
    // main.ts beside this file under tsx, main.js in the compiled dist/.
    exec: path.join(import.meta.dirname, `main${path.extname(import.meta.filename)}`),
    log,
  });
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the workers');
    await supervisor.stop('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

primary().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
