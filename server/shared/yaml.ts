import type * as Yaml from 'yaml';
import { lazyPackage } from './lazy-package.ts';

const yaml = lazyPackage<typeof Yaml>('yaml');

/** YAML text as data; the parser is loaded on first use (a start reads the contract's cached JSON instead). */
export function parseYaml(text: string): unknown {
  return yaml().parse(text) as unknown;
}
