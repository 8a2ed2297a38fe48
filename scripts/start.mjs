// `npm start`: the server from its bundle (server-bundle.mjs), built first when a source changed.
import { pathToFileURL } from 'node:url';
import { serverBundle } from './server-bundle.mjs';

await import(pathToFileURL(await serverBundle()).href);
