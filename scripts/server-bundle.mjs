import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** Inside node_modules: packages resolve from there as they do from the sources, and nothing serves or commits it. */
const outDir = path.join(root, 'node_modules', '.cache', 'atelier-server');
const bundle = path.join(outDir, 'main.mjs');
/** The files the bundle was built from (relative to the repository), to know when it is stale. */
const inputsFile = path.join(outDir, 'inputs.json');

/**
 * Each of our modules (packages are not bundled, so only ours are loaded here) keeps its own place: in one bundle every module would share the bundle's
 * `import.meta`, and the server finds its migrations, contract and helper scripts beside its sources.
 */
const ownPlace = {
  name: 'own-place',
  setup(bundler) {
    bundler.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const source = await fs.promises.readFile(file, 'utf8');
      const relative = JSON.stringify(path.relative(root, file));
      return {
        contents: source
          .replaceAll('import.meta.dirname', `__atelierPath.dirname(__atelierSource(${relative}))`)
          .replaceAll('import.meta.filename', `__atelierSource(${relative})`)
          .replaceAll('import.meta.url', `__atelierUrl.pathToFileURL(__atelierSource(${relative})).href`),
        loader: 'ts',
      };
    });
  },
};

const banner = [
  "import __atelierPath from 'node:path';",
  "import __atelierUrl from 'node:url';",
  `const __atelierRoot = __atelierPath.resolve(import.meta.dirname, ${JSON.stringify(path.relative(outDir, root))});`,
  'const __atelierSource = (relative) => __atelierPath.join(__atelierRoot, relative);',
].join('\n');

/**
 * Whether `bundle` must be built again: it is missing, its list of inputs (`inputsFile`, paths
 * relative to `base`) is unreadable, or one of them is gone or newer than it.
 */
export function isStale(bundle, inputsFile, base) {
  const built = fs.statSync(bundle, { throwIfNoEntry: false });
  if (!built) return true;
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return true;
  }
  return inputs.some((input) => {
    const stat = fs.statSync(path.join(base, input), { throwIfNoEntry: false });
    return !stat || stat.mtimeMs > built.mtimeMs;
  });
}

/**
 * The server as one JavaScript module: its own code bundled, packages imported as they are, built
 * again when a file it came from changed (about 0.7 s). Node loads it in half the time tsx takes to
 * load the sources one by one, and in 60 MB less memory. Returns the bundle's path.
 */
export async function serverBundle() {
  if (!isStale(bundle, inputsFile, root)) return bundle;
  // Loaded only to build: its import is 35 ms of every restart.
  const { build } = await import('esbuild');
  const started = new Date();
  const result = await build({
    entryPoints: [path.join(root, 'server', 'main.ts')],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Node 20's import attributes (`with { type: 'json' }`) are kept only for a target that has them.
    target: 'node20.20',
    packages: 'external',
    banner: { js: banner },
    plugins: [ownPlace],
    metafile: true,
    write: false,
    outfile: bundle,
    logLevel: 'warning',
  });
  const inputs = [...Object.keys(result.metafile.inputs), path.relative(root, import.meta.filename)];
  fs.mkdirSync(outDir, { recursive: true });
  // Written beside and renamed: a server starting meanwhile reads the old bundle or the new one, whole.
  const suffix = `.${process.pid}.tmp`;
  fs.writeFileSync(bundle + suffix, result.outputFiles[0].contents);
  // Dated when the build began: a source saved while it ran is newer, and builds again next time.
  fs.utimesSync(bundle + suffix, started, started);
  fs.writeFileSync(inputsFile + suffix, JSON.stringify(inputs));
  fs.renameSync(inputsFile + suffix, inputsFile);
  fs.renameSync(bundle + suffix, bundle);
  return bundle;
}
