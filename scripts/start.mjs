// `npm start`: the server from its bundle (server-bundle.mjs), built first when a source changed.
import { pathToFileURL } from 'node:url';
import { serverBundle } from './server-bundle.mjs';

const USAGE = `Usage: node scripts/start.mjs [--build-if-needed]

Runs the Atelier server (\`npm start\` passes --build-if-needed: the web app is built first when
its sources changed). It is configured by environment variables (PORT, HOST, DATA_DIR,
DATABASE_URL, APP_MODE, …): see the README's configuration table.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.find((arg) => arg !== '--build-if-needed');
if (unknown !== undefined) {
  console.error(`Unknown argument: ${unknown}\n\n${USAGE}`);
  process.exit(2);
}

await import(pathToFileURL(await serverBundle()).href);
