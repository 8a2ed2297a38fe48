// Dependencies point one way (ARCHITECTURE.md §2):
//   browser: root → routes → features → ui, api, app, machines, realtime, rules;  a feature never reaches into another feature
//   server:  http → modules → agent, runtime, realtime, shared → db;  a module reaches another only through its index.ts
//   machines/ are the browser's flows and never import the server (the server's own statechart lives in server/agent)
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Layer of a repository-relative path, and the unit inside it (feature or module name). */
function place(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'src' && parts[1] === 'features')
    return { layer: 'feature', unit: parts[2], rest: parts.slice(3).join('/') };
  if (parts[0] === 'src') return { layer: `src/${parts[1]}` };
  if (parts[0] === 'machines') return { layer: 'machines' };
  if (parts[0] === 'server' && parts[1] === 'modules')
    return { layer: 'module', unit: parts[2], rest: parts.slice(3).join('/') };
  if (parts[0] === 'server') return { layer: `server/${parts[1]}` };
  return { layer: parts[0] };
}

const serverLayers = [
  'server/http',
  'module',
  'server/agent',
  'server/runtime',
  'server/realtime',
  'server/shared',
  'server/db',
  'server/cli',
  'server/main.ts',
  'server/config.ts',
];
const srcLayers = [
  'src/root',
  'src/routes',
  'feature',
  'src/ui',
  'src/api',
  'src/app',
  'src/realtime',
  'src/rules',
  'src/styles',
];
/** Below the modules: the engines they drive, which must not know the modules or the HTTP edge. */
const engine = ['module', 'server/http', 'server/cli', 'server/main.ts'];

const forbidden = {
  // The composition root sees every route; nothing imports it but main.tsx.
  'src/routes': ['src/root'],
  feature: ['src/root', 'src/routes'],
  'src/ui': ['src/root', 'feature', 'src/routes', 'src/api', 'src/app', 'machines'],
  'src/api': ['src/root', 'feature', 'src/routes', 'src/ui'],
  'src/app': ['src/root', 'feature', 'src/routes'],
  'src/styles': ['src/root', 'feature', 'src/routes', 'src/app', 'src/api'],
  'src/realtime': ['src/root', 'feature', 'src/routes', 'src/ui'],
  // Pure rules over the contract's types (display, formats) shared by several features.
  'src/rules': ['src/root', 'feature', 'src/routes', 'src/ui', 'src/app', 'src/api', 'src/realtime', 'machines'],
  machines: [...srcLayers, ...serverLayers],
  'server/db': ['module', 'server/http', 'server/realtime', 'server/agent', 'server/runtime', 'server/cli'],
  module: ['server/http', 'server/cli', 'server/main.ts'],
  'server/agent': engine,
  'server/runtime': engine,
  'server/realtime': engine,
  'server/shared': engine,
};

export const importBoundaries = {
  meta: { type: 'problem', schema: [], messages: { crossing: '{{from}} must not import {{to}} ({{why}})' } },
  create(context) {
    const fromRel = path.relative(root, context.filename).split(path.sep).join('/');
    const from = place(fromRel);
    function check(node) {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const toRel = path
        .relative(root, path.resolve(path.dirname(context.filename), spec))
        .split(path.sep)
        .join('/');
      const to = place(toRel);
      const isPublic = to.rest === '' || /^index(\.tsx?)?$/.test(to.rest ?? '');
      let why;
      if (
        (from.layer === 'feature' || from.layer === 'module') &&
        to.layer === from.layer &&
        to.unit !== from.unit &&
        !isPublic
      )
        why = `another ${to.layer}'s internals; import its index`;
      else if ((forbidden[from.layer] ?? []).includes(to.layer)) why = 'dependencies point the other way';
      if (why) context.report({ node, messageId: 'crossing', data: { from: fromRel, to: toRel, why } });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
