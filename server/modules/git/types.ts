import type { components } from '../../../openapi/schema.d.ts';
import type { GitProvider } from '../../../openapi/types.ts';

export type { GitProvider };
export type GitUser = components['schemas']['GitUser'];
export type Repository = components['schemas']['Repository'];
export type Branch = components['schemas']['Branch'];
export type RepositorySort = 'pushed' | 'updated' | 'created' | 'full_name';

/** A file of a repository as its host lists it. */
export interface RepositoryFile {
  name: string;
  path: string;
}

/**
 * One git host's REST API, as a user's token sees it. Every method throws a DomainError
 * (a clear {"detail"} naming the provider) when the host refuses or cannot be reached.
 */
export interface GitHost {
  readonly provider: GitProvider;
  user(): Promise<GitUser>;
  /** The account's primary email when the host verified it (else another verified one), or null. */
  verifiedEmail(): Promise<string | null>;
  /** One page of the user's repositories, and the number of the next page when there is one. */
  repositories(query: {
    sort: RepositorySort;
    page: number;
    perPage: number;
    installationId?: string | undefined;
  }): Promise<{ repositories: Repository[]; nextPage: number | null }>;
  search(query: string, perPage: number): Promise<Repository[]>;
  branches(fullName: string): Promise<Branch[]>;
  /** App installations (GitHub) or workspaces (Bitbucket) the token reaches. */
  installations(): Promise<string[]>;
  /** The files of a directory on the default branch; none when it does not exist. */
  listDirectory(fullName: string, directory: string): Promise<RepositoryFile[]>;
  /** A file's text on the default branch. */
  readFile(fullName: string, path: string): Promise<string>;
}
