import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on first use rather than when the server starts: node loads and runs every
 * statically imported package before the server can answer, and these serve one feature each
 * (a model provider, a terminal, the Python kernel). Only for packages with a CommonJS build.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
