import http from 'node:http';
import type { AddressInfo } from 'node:net';

// Local servers that answer like the git hosts' REST APIs — GitHub (v3, under /api/v3 as GitHub
// Enterprise Server serves it), GitLab (v4) and Bitbucket Cloud (2.0): the shapes they document,
// their pagination (Link headers, x-next-page, `next` URLs), error bodies and rate-limit headers.
// Repositories and files are whatever a test gives them.

export interface FakeRepository {
  id: number;
  full_name: string;
  private?: boolean;
  default_branch?: string;
  pushed_at?: string;
  stargazers_count?: number;
  branches?: { name: string; sha: string; protected?: boolean; date?: string }[];
  /** Files by path, as text. */
  files?: Record<string, string>;
}

export interface FakeHostOptions {
  /** The only token it accepts. */
  token: string;
  /** A token it answers as out of rate limit. */
  limitedToken?: string;
  user?: { id: number; login: string; name?: string; email?: string };
  repositories: FakeRepository[];
  /** Installations (GitHub), groups (GitLab) or workspaces (Bitbucket) and their repositories. */
  installations?: { id: number | string; repositories: string[] }[];
  /** The user's email addresses and whether the host verified them; by default the user's email, verified. */
  emails?: { email: string; primary?: boolean; verified: boolean }[];
  /** An OAuth app it knows (sign-in through this host): its authorize page gives codes for `token`. */
  oauth?: { clientId: string; clientSecret: string };
  /** The `expires_in` of the tokens its OAuth app grants (GitLab, Bitbucket), in seconds: 7200 unless given. */
  oauthLifetime?: number;
  /** Serves git itself (clone, push) beside the API, as a real host does: `<host>/<owner>/<repo>.git/…`. */
  gitBackend?: (request: http.IncomingMessage, response: http.ServerResponse) => void;
}

/** What a request sent beside its URL: a JSON body (undefined when it is not JSON) and where it was sent. */
interface Posted {
  method: string;
  body: unknown;
  origin: string;
  /** The body as a form, when it was sent as one. */
  form: URLSearchParams;
  authorization: string | undefined;
}

/** Where a host's OAuth 2 authorization-code flow answers, and how it says yes and no. */
interface OAuthFlow {
  authorize: string;
  token: string;
  /** The client authenticates with Basic (Bitbucket) instead of form fields. */
  basic: boolean;
  /** `grant_type=authorization_code` is required (GitLab, Bitbucket; GitHub has no such field). */
  grantType: boolean;
  /**
   * Grants refresh tokens (GitLab, Bitbucket); `single-use`: a refresh revokes the refresh token
   * it traded and the token granted with it (GitLab), `reusable`: neither (Bitbucket).
   */
  refresh: 'single-use' | 'reusable' | null;
  granted: (token: string, refreshToken: string, lifetime: number) => unknown;
  refused: (error: 'invalid_grant' | 'invalid_client') => Answer;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as text instead of JSON. */
  text?: boolean;
}

const DEFAULT_USER = { id: 7, login: 'octo', name: 'Octo Cat', email: 'octo@example.com' };

const emailsOf = (options: FakeHostOptions) =>
  options.emails ?? [
    { email: (options.user ?? DEFAULT_USER).email ?? 'octo@example.com', primary: true, verified: true },
  ];

/**
 * The OAuth app's two endpoints: the authorize page sends the browser back to `redirect_uri` with
 * a one-time code (and the `state` it was given); the token endpoint trades that code, with the
 * app's credentials and the same `redirect_uri`, for the host's `token`.
 */
function oauthPeer(options: FakeHostOptions, flow: OAuthFlow) {
  const codes = new Map<string, string>();
  /** Live refresh tokens → the token granted with each. */
  const refreshTokens = new Map<string, string>();
  /** Tokens granted by refreshes, and revoked ones (the fixture's `token` too, once a refresh traded its grant). */
  const refreshed = new Set<string>();
  const revoked = new Set<string>();
  const refreshes = { granted: 0, refused: 0 };
  let issued = 0;
  const grant = (token: string) => {
    const refreshToken = `refresh-${++issued}-${Math.random().toString(36).slice(2)}`;
    refreshTokens.set(refreshToken, token);
    return { status: 200, body: flow.granted(token, refreshToken, options.oauthLifetime ?? 7_200) };
  };
  const accepts = (token: string | undefined) =>
    token !== undefined && !revoked.has(token) && (token === options.token || refreshed.has(token));
  const issueCode = (redirectUri: string) => {
    const code = `code-${++issued}-${Math.random().toString(36).slice(2)}`;
    codes.set(code, redirectUri);
    return code;
  };
  const answer = (url: URL, request: Posted): Answer | undefined => {
    const app = options.oauth;
    if (!app) return undefined;
    if (url.pathname === flow.authorize && request.method === 'GET') {
      const redirect = url.searchParams.get('redirect_uri');
      if (url.searchParams.get('client_id') !== app.clientId || !redirect)
        return { status: 404, body: 'Unknown application', text: true };
      const back = new URL(redirect);
      back.searchParams.set('code', issueCode(redirect));
      const state = url.searchParams.get('state');
      if (state !== null) back.searchParams.set('state', state);
      return { status: 302, body: '', text: true, headers: { location: back.href } };
    }
    if (url.pathname !== flow.token || request.method !== 'POST') return undefined;
    const basic = /^Basic (.+)$/.exec(request.authorization ?? '')?.[1];
    const [id, secret] = flow.basic
      ? Buffer.from(basic ?? '', 'base64')
          .toString()
          .split(':')
      : [request.form.get('client_id'), request.form.get('client_secret')];
    if (id !== app.clientId || secret !== app.clientSecret) return flow.refused('invalid_client');
    if (flow.refresh && request.form.get('grant_type') === 'refresh_token') {
      const traded = request.form.get('refresh_token') ?? '';
      const before = refreshTokens.get(traded);
      if (before === undefined) {
        refreshes.refused++;
        return flow.refused('invalid_grant');
      }
      refreshes.granted++;
      const token = `${options.token}-refreshed-${issued + 1}`;
      refreshed.add(token);
      if (flow.refresh === 'reusable')
        return { status: 200, body: flow.granted(token, traded, options.oauthLifetime ?? 7_200) };
      refreshTokens.delete(traded);
      revoked.add(before);
      return grant(token);
    }
    const code = request.form.get('code') ?? '';
    const redirect = codes.get(code);
    codes.delete(code);
    if (flow.grantType && request.form.get('grant_type') !== 'authorization_code') return flow.refused('invalid_grant');
    if (redirect === undefined || redirect !== request.form.get('redirect_uri')) return flow.refused('invalid_grant');
    revoked.delete(options.token);
    return grant(options.token);
  };
  /** Refresh tokens granted so far stop working, as when the user revokes the app's access. */
  const revokeRefreshTokens = () => refreshTokens.clear();
  return { answer, issueCode, accepts, refreshes, revokeRefreshTokens };
}

/** A page of `items` by `page` and a page-size parameter; `more` tells whether another follows. */
function slice<T>(url: URL, items: T[], sizeParameter: string) {
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
  const size = Math.min(100, Math.max(1, Number(url.searchParams.get(sizeParameter) ?? 30)));
  const next = new URL(url.href);
  next.searchParams.set('page', String(page + 1));
  return { items: items.slice((page - 1) * size, page * size), more: page * size < items.length, next: next.href };
}

function byPush(repositories: FakeRepository[]) {
  return [...repositories].sort((a, b) => (b.pushed_at ?? '').localeCompare(a.pushed_at ?? ''));
}

/** Files directly inside `directory`. */
const filesIn = (repo: FakeRepository, directory: string) =>
  Object.keys(repo.files ?? {}).filter(
    (p) => p.startsWith(`${directory}/`) && !p.slice(directory.length + 1).includes('/'),
  );

function jsonOrUndefined(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function serve(
  options: FakeHostOptions,
  authorized: (
    authorization: string | undefined,
    accepts: (token: string | undefined) => boolean,
  ) => 'ok' | 'limited' | 'refused',
  refusal: { limited: Answer; refused: Answer },
  route: (url: URL, find: (fullName: string) => FakeRepository | undefined, request: Posted) => Answer,
  flow: OAuthFlow,
) {
  const oauth = oauthPeer(options, flow);
  const requests: { path: string; authorization: string | undefined }[] = [];
  const find = (fullName: string) =>
    options.repositories.find((r) => r.full_name.toLowerCase() === fullName.toLowerCase());
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (options.gitBackend && /\.git(\/|$)/.test(url.pathname)) return options.gitBackend(request, response);
    requests.push({ path: `${url.pathname}${url.search}`, authorization: request.headers.authorization });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    const posted = {
      method: request.method ?? 'GET',
      body: jsonOrUndefined(text),
      origin: `http://${request.headers.host}`,
      form: new URLSearchParams(
        request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ? text : '',
      ),
      authorization: request.headers.authorization,
    };
    // The OAuth endpoints authenticate the app, not a user's token.
    const access = authorized(request.headers.authorization, oauth.accepts);
    const answer = oauth.answer(url, posted) ?? (access === 'ok' ? route(url, find, posted) : refusal[access]);
    response.writeHead(answer.status, {
      'content-type': answer.text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      ...answer.headers,
    });
    response.end(answer.text ? String(answer.body) : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** A code its token endpoint takes once, as the authorize page would have given for `redirectUri`. */
    issueCode: oauth.issueCode,
    /** Refresh grants it answered, and refused. */
    refreshes: oauth.refreshes,
    revokeRefreshTokens: oauth.revokeRefreshTokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const bearer =
  (options: FakeHostOptions) =>
  (authorization: string | undefined, accepts: (token: string | undefined) => boolean) => {
    const token = /^(?:Bearer|token) (.+)$/.exec(authorization ?? '')?.[1];
    if (options.limitedToken && token === options.limitedToken) return 'limited' as const;
    return accepts(token) ? ('ok' as const) : ('refused' as const);
  };

export function startGitHubApiServer(options: FakeHostOptions) {
  const user = options.user ?? DEFAULT_USER;
  const pullRequests: { number: number; repository: string; title: string; head: string; base: string }[] = [];
  // POST /repos/{owner}/{repo}/pulls: title, head and base required (422 'Validation Failed' as GitHub answers).
  const openPullRequest = (repo: FakeRepository | undefined, request: Posted): Answer => {
    if (!repo) return notFound;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const missing = ['title', 'head', 'base'].filter((field) => typeof body[field] !== 'string' || body[field] === '');
    if (missing.length > 0)
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: missing.map((field) => ({ resource: 'PullRequest', field, code: 'missing_field' })),
        },
      };
    const number = pullRequests.length + 1;
    const pull = {
      number,
      repository: repo.full_name,
      title: String(body.title),
      head: String(body.head),
      base: String(body.base),
    };
    pullRequests.push(pull);
    return {
      status: 201,
      body: {
        number,
        state: 'open',
        title: pull.title,
        html_url: `${request.origin}/${repo.full_name}/pull/${number}`,
        head: { ref: pull.head },
        base: { ref: pull.base },
      },
    };
  };
  const json = (repo: FakeRepository) => ({
    id: repo.id,
    name: repo.full_name.split('/')[1],
    full_name: repo.full_name,
    private: repo.private ?? false,
    owner: { login: repo.full_name.split('/')[0] },
    default_branch: repo.default_branch ?? 'main',
    pushed_at: repo.pushed_at ?? '2026-11-01T00:00:00Z',
    stargazers_count: repo.stargazers_count ?? 0,
  });
  const paged = (url: URL, items: unknown[], wrap?: (page: unknown[]) => unknown): Answer => {
    const page = slice(url, items, 'per_page');
    return {
      status: 200,
      body: wrap ? wrap(page.items) : page.items,
      headers: page.more ? { link: `<${page.next}>; rel="next", <${page.next}>; rel="last"` } : {},
    };
  };
  const notFound: Answer = {
    status: 404,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
  };
  return serve(
    options,
    bearer(options),
    {
      limited: {
        status: 403,
        body: { message: `API rate limit exceeded for user ID ${user.id}.` },
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795000000' },
      },
      refused: { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } },
    },
    (url, find, request) => {
      const path = url.pathname.replace(/^\/api\/v3/, '');
      const pulls = /^\/repos\/([^/]+\/[^/]+)\/pulls$/.exec(path);
      if (pulls && request.method === 'POST') return openPullRequest(find(pulls[1] ?? ''), request);
      if (path === '/user')
        return { status: 200, body: { company: null, ...user, avatar_url: `https://avatars.example/${user.id}` } };
      if (path === '/user/emails')
        return {
          status: 200,
          body: emailsOf(options).map((e) => ({
            email: e.email,
            primary: e.primary ?? false,
            verified: e.verified,
            visibility: e.primary ? 'private' : null,
          })),
        };
      if (path === '/user/repos') {
        const sorted =
          url.searchParams.get('sort') === 'full_name'
            ? [...options.repositories].sort((a, b) => a.full_name.localeCompare(b.full_name))
            : byPush(options.repositories);
        return paged(url, sorted.map(json));
      }
      if (path === '/user/installations')
        return options.installations
          ? {
              status: 200,
              body: {
                total_count: options.installations.length,
                installations: options.installations.map(({ id }) => ({ id })),
              },
            }
          : {
              status: 403,
              body: {
                message:
                  'You must authenticate with an access token authorized to a GitHub App in order to list installations',
              },
            };
      const installation = /^\/user\/installations\/(\d+)\/repositories$/.exec(path);
      if (installation) {
        const found = options.installations?.find((i) => String(i.id) === installation[1]);
        if (!found) return notFound;
        const repos = options.repositories.filter((r) => found.repositories.includes(r.full_name)).map(json);
        return paged(url, repos, (page) => ({ total_count: repos.length, repositories: page }));
      }
      if (path === '/search/repositories') {
        const words = (url.searchParams.get('q') ?? '').split(/\s+/).filter((w) => w && !w.includes(':'));
        const matches = byPush(options.repositories).filter((r) =>
          words.every((w) => r.full_name.split('/')[1]?.toLowerCase().includes(w.toLowerCase())),
        );
        return {
          status: 200,
          body: {
            total_count: matches.length,
            incomplete_results: false,
            items: slice(url, matches.map(json), 'per_page').items,
          },
        };
      }
      const repoRoute = /^\/repos\/([^/]+)\/([^/]+)\/(branches|contents\/(.+))$/.exec(path);
      const repo =
        repoRoute && find(`${decodeURIComponent(repoRoute[1] ?? '')}/${decodeURIComponent(repoRoute[2] ?? '')}`);
      if (!repoRoute || !repo) return notFound;
      if (repoRoute[3] === 'branches') {
        const branches = (repo.branches ?? [{ name: repo.default_branch ?? 'main', sha: 'a'.repeat(40) }]).map((b) => ({
          name: b.name,
          commit: { sha: b.sha, url: '' },
          protected: b.protected ?? false,
        }));
        return paged(url, branches);
      }
      const target = decodeURIComponent(repoRoute[4] ?? '');
      const text = repo.files?.[target];
      if (text !== undefined)
        return {
          status: 200,
          body: {
            type: 'file',
            name: target.split('/').at(-1),
            path: target,
            encoding: 'base64',
            content: Buffer.from(text).toString('base64'),
          },
        };
      const inside = filesIn(repo, target);
      return inside.length
        ? { status: 200, body: inside.map((p) => ({ type: 'file', name: p.split('/').at(-1), path: p })) }
        : notFound;
    },
    {
      authorize: '/login/oauth/authorize',
      token: '/login/oauth/access_token',
      basic: false,
      grantType: false,
      refresh: null,
      granted: (token) => ({ access_token: token, token_type: 'bearer', scope: 'repo,read:user,user:email' }),
      // GitHub answers a refused exchange with 200 and an error.
      refused: (error) => ({
        status: 200,
        body:
          error === 'invalid_client'
            ? {
                error: 'incorrect_client_credentials',
                error_description: 'The client_id and/or client_secret passed are incorrect.',
              }
            : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
      }),
    },
  ).then((server) => ({ ...server, pullRequests }));
}

export function startGitLabApiServer(options: FakeHostOptions) {
  const user = options.user ?? DEFAULT_USER;
  const json = (repo: FakeRepository) => ({
    id: repo.id,
    path_with_namespace: repo.full_name,
    visibility: repo.private ? 'private' : 'public',
    star_count: repo.stargazers_count ?? 0,
    last_activity_at: repo.pushed_at ?? '2026-11-01T00:00:00Z',
    default_branch: repo.default_branch ?? 'main',
  });
  const paged = (url: URL, items: unknown[]): Answer => {
    const page = slice(url, items, 'per_page');
    const current = Number(url.searchParams.get('page') ?? 1);
    return {
      status: 200,
      body: page.items,
      headers: {
        'x-next-page': page.more ? String(current + 1) : '',
        ...(page.more && { link: `<${page.next}>; rel="next"` }),
      },
    };
  };
  const notFound = (what: string): Answer => ({ status: 404, body: { message: `404 ${what} Not Found` } });
  return serve(
    options,
    bearer(options),
    {
      limited: {
        status: 429,
        body: { message: 'Retry later' },
        headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '1795000000' },
      },
      refused: { status: 401, body: { message: '401 Unauthorized' } },
    },
    (url, find) => {
      const path = url.pathname.replace(/^\/api\/v4/, '');
      if (path === '/user')
        return {
          status: 200,
          body: {
            id: user.id,
            username: user.login,
            name: user.name,
            public_email: user.email,
            email: emailsOf(options).find((e) => e.primary)?.email ?? user.email,
            confirmed_at: emailsOf(options).find((e) => e.primary)?.verified ? '2026-01-05T10:00:00.000Z' : null,
            avatar_url: `https://avatars.example/${user.id}`,
          },
        };
      if (path === '/projects') {
        const search = url.searchParams.get('search')?.toLowerCase();
        const repos = byPush(options.repositories).filter((r) => !search || r.full_name.toLowerCase().includes(search));
        return paged(url, repos.map(json));
      }
      if (path === '/groups')
        return { status: 200, body: (options.installations ?? []).map((g) => ({ id: g.id, full_path: String(g.id) })) };
      const group = /^\/groups\/([^/]+)\/projects$/.exec(path);
      if (group) {
        const found = options.installations?.find((g) => String(g.id) === decodeURIComponent(group[1] ?? ''));
        if (!found) return notFound('Group');
        return paged(url, options.repositories.filter((r) => found.repositories.includes(r.full_name)).map(json));
      }
      const projectRoute = /^\/projects\/([^/]+)\/repository\/(branches|tree|files\/([^/]+)\/raw)$/.exec(path);
      const repo = projectRoute && find(decodeURIComponent(projectRoute[1] ?? ''));
      if (!projectRoute || !repo) return notFound('Project');
      if (projectRoute[2] === 'branches')
        return paged(
          url,
          (repo.branches ?? [{ name: repo.default_branch ?? 'main', sha: 'a'.repeat(40) }]).map((b) => ({
            name: b.name,
            protected: b.protected ?? false,
            commit: { id: b.sha, committed_date: b.date ?? null },
          })),
        );
      if (projectRoute[2] === 'tree') {
        const inside = filesIn(repo, url.searchParams.get('path') ?? '');
        return inside.length
          ? {
              status: 200,
              body: inside.map((p) => ({ type: 'blob', name: p.split('/').at(-1), path: p, mode: '100644' })),
            }
          : notFound('Tree');
      }
      const file = decodeURIComponent(projectRoute[3] ?? '');
      const text = repo.files?.[file];
      return text === undefined ? notFound('File') : { status: 200, body: text, text: true };
    },
    {
      authorize: '/oauth/authorize',
      token: '/oauth/token',
      basic: false,
      grantType: true,
      refresh: 'single-use',
      granted: (token, refreshToken, lifetime) => ({
        access_token: token,
        token_type: 'Bearer',
        expires_in: lifetime,
        refresh_token: refreshToken,
        scope: 'api read_user',
        created_at: 1795000000,
      }),
      refused: (error) =>
        error === 'invalid_client'
          ? {
              status: 401,
              body: {
                error: 'invalid_client',
                error_description:
                  'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
              },
            }
          : {
              status: 400,
              body: {
                error: 'invalid_grant',
                error_description:
                  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
              },
            },
    },
  );
}

export function startBitbucketApiServer(options: FakeHostOptions) {
  const user = options.user ?? DEFAULT_USER;
  const uuid = (id: number) => `{00000000-0000-0000-0000-${String(id).padStart(12, '0')}}`;
  const json = (repo: FakeRepository) => ({
    type: 'repository',
    uuid: uuid(repo.id),
    full_name: repo.full_name,
    is_private: repo.private ?? false,
    updated_on: repo.pushed_at ?? '2026-11-01T00:00:00Z',
    mainbranch: { type: 'branch', name: repo.default_branch ?? 'main' },
  });
  const paged = (url: URL, items: unknown[]): Answer => {
    const page = slice(url, items, 'pagelen');
    return {
      status: 200,
      body: {
        pagelen: Number(url.searchParams.get('pagelen') ?? 30),
        page: Number(url.searchParams.get('page') ?? 1),
        values: page.items,
        ...(page.more && { next: page.next }),
      },
    };
  };
  const error = (status: number, message: string): Answer => ({ status, body: { type: 'error', error: { message } } });
  const authorized = (authorization: string | undefined, accepts: (token: string | undefined) => boolean) => {
    const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
    if (basic && Buffer.from(basic, 'base64').toString() === options.token) return 'ok' as const;
    return bearer(options)(authorization, accepts);
  };
  return serve(
    options,
    authorized,
    {
      limited: {
        status: 429,
        body: { type: 'error', error: { message: 'Rate limit for this resource has been exceeded' } },
      },
      refused: error(401, 'Access token expired.'),
    },
    (url, find) => {
      const path = url.pathname.replace(/^\/2\.0/, '');
      if (path === '/user')
        return {
          status: 200,
          body: {
            type: 'user',
            uuid: uuid(user.id),
            username: user.login,
            display_name: user.name,
            links: { avatar: { href: `https://avatars.example/${user.id}` } },
          },
        };
      if (path === '/user/emails')
        return paged(
          url,
          emailsOf(options).map((e) => ({
            type: 'email',
            email: e.email,
            is_primary: e.primary ?? false,
            is_confirmed: e.verified,
          })),
        );
      if (path === '/repositories') {
        const q = /name ~ "([^"]*)"/.exec(url.searchParams.get('q') ?? '')?.[1]?.toLowerCase();
        return paged(
          url,
          byPush(options.repositories)
            .filter((r) => !q || r.full_name.toLowerCase().includes(q))
            .map(json),
        );
      }
      if (path === '/workspaces')
        return paged(
          url,
          (options.installations ?? []).map((w) => ({ type: 'workspace', slug: String(w.id) })),
        );
      const workspace = /^\/repositories\/([^/]+)$/.exec(path);
      if (workspace) {
        const found = options.installations?.find((w) => String(w.id) === decodeURIComponent(workspace[1] ?? ''));
        if (!found) return error(404, 'Workspace not found');
        return paged(url, options.repositories.filter((r) => found.repositories.includes(r.full_name)).map(json));
      }
      const repoRoute = /^\/repositories\/([^/]+)\/([^/]+)\/(refs\/branches|src\/HEAD\/(.*))$/.exec(path);
      const repo =
        repoRoute && find(`${decodeURIComponent(repoRoute[1] ?? '')}/${decodeURIComponent(repoRoute[2] ?? '')}`);
      if (!repoRoute || !repo) return error(404, 'Repository not found');
      if (repoRoute[3] === 'refs/branches')
        return paged(
          url,
          (repo.branches ?? [{ name: repo.default_branch ?? 'main', sha: 'a'.repeat(40) }]).map((b) => ({
            type: 'branch',
            name: b.name,
            target: { hash: b.sha, date: b.date ?? null },
          })),
        );
      const target = decodeURIComponent(repoRoute[4] ?? '').replace(/\/$/, '');
      const text = repo.files?.[target];
      if (text !== undefined && !repoRoute[4]?.endsWith('/')) return { status: 200, body: text, text: true };
      const inside = filesIn(repo, target);
      return inside.length
        ? paged(
            url,
            inside.map((p) => ({ type: 'commit_file', path: p })),
          )
        : error(404, 'No such file or directory');
    },
    {
      authorize: '/site/oauth2/authorize',
      token: '/site/oauth2/access_token',
      basic: true,
      grantType: true,
      refresh: 'reusable',
      granted: (token, refreshToken, lifetime) => ({
        access_token: token,
        scopes: 'account email repository',
        expires_in: lifetime,
        refresh_token: refreshToken,
        token_type: 'bearer',
      }),
      refused: (error) => ({
        status: 400,
        body:
          error === 'invalid_client'
            ? { error: 'invalid_client', error_description: 'Invalid client_id' }
            : { error: 'invalid_grant', error_description: 'The specified code is not valid.' },
      }),
    },
  );
}
