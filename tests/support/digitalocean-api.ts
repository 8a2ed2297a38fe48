import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local server that answers like DigitalOcean's API v2 for droplets: sizes with prices, create
// (202 with the create action's link), the action's progress, a droplet's networks, delete, and
// its error bodies ({"id", "message"}) and rate-limit headers.

export interface FakeDigitalOceanOptions {
  token: string;
  /** Polls of the create action before it completes; never, for a droplet that does not come up. */
  pollsUntilActive?: number | 'never';
  /** The public address droplets get (a loopback one lets a test serve the "droplet's" app). */
  ip?: string;
}

interface FakeDroplet {
  id: number;
  name: string;
  region: string;
  size: string;
  image: string;
  userData: string;
  tags: string[];
  polls: number;
  actionId: number;
}

export const SIZES = [
  { slug: 's-1vcpu-512mb-10gb', memory: 512, vcpus: 1, price_hourly: 0.00595, price_monthly: 4, available: true },
  { slug: 's-1vcpu-1gb', memory: 1024, vcpus: 1, price_hourly: 0.00893, price_monthly: 6, available: true },
  { slug: 's-2vcpu-4gb', memory: 4096, vcpus: 2, price_hourly: 0.03571, price_monthly: 24, available: true },
  { slug: 'gd-40vcpu-160gb', memory: 163840, vcpus: 40, price_hourly: 1.786, price_monthly: 1200, available: false },
].map((s) => ({ ...s, disk: 25, transfer: 1, regions: ['nyc3', 'fra1', 'ams3'], description: 'Basic' }));

const notFound = { id: 'not_found', message: 'The resource you were accessing could not be found.' };

export async function startDigitalOceanApi(options: FakeDigitalOceanOptions) {
  const droplets = new Map<number, FakeDroplet>();
  const deleted: FakeDroplet[] = [];
  const requests: { method: string; path: string }[] = [];
  let nextId = 3164444;
  /** Answers 429 to the next N calls. */
  let rateLimited = 0;

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://do.local');
    const method = request.method ?? 'GET';
    requests.push({ method, path: `${url.pathname}${url.search}` });
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, {
        ...(body !== undefined && { 'content-type': 'application/json; charset=utf-8' }),
        'ratelimit-limit': '5000',
        'ratelimit-remaining': rateLimited > 0 ? '0' : '4999',
        'ratelimit-reset': '1795000000',
        ...headers,
      });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${options.token}`)
      return send(401, { id: 'Unauthorized', message: 'Unable to authenticate you' });
    if (rateLimited > 0) {
      rateLimited--;
      return send(429, { id: 'too_many_requests', message: 'API Rate limit exceeded.' });
    }
    const json = (droplet: FakeDroplet) => {
      const active = options.pollsUntilActive !== 'never' && droplet.polls >= (options.pollsUntilActive ?? 1);
      return {
        id: droplet.id,
        name: droplet.name,
        status: active ? 'active' : 'new',
        size_slug: droplet.size,
        region: { slug: droplet.region, name: droplet.region },
        image: { slug: droplet.image },
        tags: droplet.tags,
        networks: {
          v4: active
            ? [
                { ip_address: '10.116.0.2', type: 'private', netmask: '255.255.240.0' },
                { ip_address: options.ip ?? '127.0.0.1', type: 'public', netmask: '255.255.240.0' },
              ]
            : [],
          v6: [],
        },
      };
    };

    if (method === 'GET' && url.pathname === '/v2/sizes')
      return send(200, { sizes: SIZES, links: {}, meta: { total: SIZES.length } });
    if (method === 'POST' && url.pathname === '/v2/droplets') {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      const missing = ['name', 'region', 'size', 'image'].filter((k) => typeof body[k] !== 'string' || !body[k]);
      if (missing.length > 0) return send(422, { id: 'unprocessable_entity', message: `${missing[0]} is required` });
      if (!/^[a-zA-Z0-9.-]+$/.test(String(body.name)))
        return send(422, {
          id: 'unprocessable_entity',
          message: 'Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -)',
        });
      if (!SIZES.some((s) => s.slug === body.size && s.available))
        return send(422, { id: 'unprocessable_entity', message: 'Size is not available in this region.' });
      const droplet: FakeDroplet = {
        id: nextId++,
        name: String(body.name),
        region: String(body.region),
        size: String(body.size),
        image: String(body.image),
        userData: String(body.user_data ?? ''),
        tags: (body.tags as string[] | undefined) ?? [],
        polls: 0,
        actionId: nextId++,
      };
      droplets.set(droplet.id, droplet);
      return send(202, {
        droplet: json(droplet),
        links: {
          actions: [{ id: droplet.actionId, rel: 'create', href: `http://do.local/v2/actions/${droplet.actionId}` }],
        },
      });
    }
    const action = /^\/v2\/actions\/(\d+)$/.exec(url.pathname);
    if (method === 'GET' && action) {
      const droplet = [...droplets.values()].find((d) => d.actionId === Number(action[1]));
      if (!droplet) return send(404, notFound);
      droplet.polls++;
      const done = options.pollsUntilActive !== 'never' && droplet.polls >= (options.pollsUntilActive ?? 1);
      return send(200, {
        action: {
          id: droplet.actionId,
          status: done ? 'completed' : 'in-progress',
          type: 'create',
          resource_id: droplet.id,
          resource_type: 'droplet',
          region_slug: droplet.region,
        },
      });
    }
    const one = /^\/v2\/droplets\/(\d+)$/.exec(url.pathname);
    const droplet = one && droplets.get(Number(one[1]));
    if (one && !droplet) return send(404, notFound);
    if (method === 'GET' && droplet) return send(200, { droplet: json(droplet) });
    if (method === 'DELETE' && droplet) {
      droplets.delete(droplet.id);
      deleted.push(droplet);
      return send(204);
    }
    return send(404, notFound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** The droplets that exist now, and those deleted. */
    droplets: () => [...droplets.values()],
    deleted,
    rateLimitNext: (calls: number) => {
      rateLimited = calls;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
