/**
 * The ceilings the product's read paths are compared with, served by the same Fastify in its own
 * process: GET /bare answers a constant envelope (no plugins, no database), and so does POST /bare
 * to a JSON body, POST /pk reads one
 * product row by primary key with the raw driver and answers it (JSON body in, envelope out).
 * CEILING_DATABASE_URL selects PostgreSQL; otherwise CEILING_PGLITE_DIR, a copy of the bench's
 * PGlite folder (one process owns a PGlite folder).
 */
import Fastify from 'fastify';
import { openRaw } from './raw-db';

const raw = await openRaw({
  databaseUrl: process.env.CEILING_DATABASE_URL,
  dataDir: process.env.CEILING_PGLITE_DIR,
});
const app = Fastify({ logger: false });
const ENVELOPE = { code: 200, msg: '操作成功', data: null };
app.get('/bare', async () => ENVELOPE);
// The same answer to a POST with a JSON body: what reading and parsing a body costs by itself.
app.post('/bare', async () => ENVELOPE);
app.post<{ Body: { id: number } }>('/pk', async (req) => {
  const rows = await raw.query('pk', 'select * from product where id = $1', [req.body.id]);
  return { code: 200, msg: '操作成功', data: rows[0] ?? null };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.log('ceiling ready');
const stop = async () => {
  await app.close();
  await raw.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
