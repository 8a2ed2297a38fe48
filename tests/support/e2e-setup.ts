import { buildWebApp } from '../../server/web-build.ts';
import prepareDatabase from './global-setup.ts';

/** Browser tests run against the built SPA, exactly as `npm start` serves it. */
export default async function setup() {
  await prepareDatabase();
  buildWebApp({ quiet: true });
}
