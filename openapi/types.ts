// Names for the contract's types that the browser, the machines, the server and the tests all use:
// one alias each over the generated schema, instead of one per file.
import type { components } from './schema.d.ts';

export type Event = components['schemas']['Event'];
export type ClientAction = components['schemas']['ClientAction'];
export type Conversation = components['schemas']['Conversation'];
export type GitProvider = components['schemas']['GitProvider'];
export type Deployment = components['schemas']['Deployment'];
