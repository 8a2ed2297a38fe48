#!/usr/bin/env node
// The shape of the code, read from its own imports (tests, benchmarks and generated files left
// out): for the whole tree, for src/ and for server/, how many rooms (folders), dependency
// arrows between them and levels they stack into — and every arrow that runs back up, i.e. lies
// on a circle between rooms. Exits 1 when there is one; `npm run lint` runs it.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const skipped = new Set([
  'node_modules',
  '.git',
  'dist',
  '.data',
  '.tmp',
  'coverage',
  'tests',
  'bench',
  'locales',
  'public',
  'migrations',
]);
const isSource = (name) => /\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name);

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(full);
    return isSource(entry.name) ? [path.relative(root, full).split(path.sep).join('/')] : [];
  });
}

/** Relative imports of a file, as repository-relative paths. */
function importsOf(file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found = [];
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g,
  )) {
    const target = path.join(path.dirname(file), match[1] ?? match[2]);
    found.push(target.split(path.sep).join('/'));
  }
  return found;
}

/** The room of a path at one view: its folder one level below the view's prefix (a file there is a room of its own). */
function roomOf(file, prefix) {
  if (prefix && !file.startsWith(`${prefix}/`)) return null;
  const rest = (prefix ? file.slice(prefix.length + 1) : file).split('/');
  // A feature, a tab and a server module is each a room.
  if (prefix === 'src' && rest[0] === 'features') return rest.slice(0, rest[1] === 'tabs' ? 3 : 2).join('/');
  if (prefix === 'server' && rest[0] === 'modules') return rest.slice(0, 2).join('/');
  return rest[0].replace(/\.(tsx?|m?js)$/, '');
}

/** Tarjan's strongly connected components: two rooms in one component depend on each other. */
function components(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const component = new Map();
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.set(member, node);
      } while (member !== node);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return component;
}

/** Levels of an acyclic graph: a room sits one level above the highest room it depends on. */
function levels(graph) {
  const level = new Map();
  const of = (node) => {
    if (!level.has(node)) {
      level.set(node, 0);
      level.set(node, Math.max(0, ...[...(graph.get(node) ?? [])].map((to) => of(to) + 1)));
    }
    return level.get(node);
  };
  for (const node of graph.keys()) of(node);
  return Math.max(0, ...level.values()) + 1;
}

const files = sourceFiles(root);
const views = [
  { name: 'whole tree', prefix: '' },
  { name: 'src/', prefix: 'src' },
  { name: 'server/', prefix: 'server' },
];
let backArrows = 0;
for (const view of views) {
  const graph = new Map();
  for (const file of files) {
    const from = roomOf(file, view.prefix);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of importsOf(file)) {
      const to = roomOf(target, view.prefix);
      if (to === null || to === from) continue;
      graph.get(from).add(to);
      if (!graph.has(to)) graph.set(to, new Set());
    }
  }
  const component = components(graph);
  const back = [...graph].flatMap(([from, tos]) =>
    [...tos].filter((to) => component.get(from) === component.get(to)).map((to) => `${from} → ${to}`),
  );
  const arrows = [...graph.values()].reduce((sum, tos) => sum + tos.size, 0);
  const shape = back.length ? 'a circle' : `${levels(graph)} levels`;
  console.log(`${view.name}: ${graph.size} rooms, ${arrows} arrows, ${shape}, ${back.length} running back up`);
  for (const arrow of back) console.log(`  back up: ${arrow}`);
  backArrows += back.length;
}
process.exit(backArrows ? 1 : 0);
