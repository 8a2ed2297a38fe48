/**
 * A TypeScript file as one JavaScript module, for a child process to run with
 * `node --input-type=module --eval`: without a TypeScript loader, which would add a second to its
 * start and ~90 MB to its memory. Packages are bundled in (`'bundle'`, for a process that may not
 * see node_modules), or left for node to resolve from the child's working directory (`'external'`).
 */
export async function scriptModule(file: string, packages: 'bundle' | 'external'): Promise<string> {
  // Loaded at the first script, not with the server: a restart needs none.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.20',
    minify: true,
    write: false,
    ...(packages === 'external' ? { packages: 'external' as const } : {}),
  });
  return result.outputFiles[0]?.text ?? '';
}
