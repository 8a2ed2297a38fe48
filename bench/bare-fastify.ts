import Fastify from 'fastify';

// The floor for the REST benchmark: Fastify on this machine answering a constant, no hooks and no database.
const app = Fastify({ logger: false });
app.get('/constant', async () => ({ ok: true }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${address}\n`);
