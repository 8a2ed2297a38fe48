import type { GitProvider } from '../../openapi/types.ts';

export type { GitProvider };
/** The git hosts a token can be saved for, in the order the screens list them. */
export const GIT_PROVIDERS: readonly GitProvider[] = ['github', 'gitlab', 'bitbucket'];
