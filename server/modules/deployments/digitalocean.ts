import { InvalidInput, Unavailable } from '../../shared/domain-errors.ts';
import type { DeployProvider, DeployRequest, DeploySize } from './types.ts';

// DigitalOcean's API v2 with the operator's token: sizes with their hourly price, a droplet made
// from a stock image whose cloud-init user data unpacks the app and runs it as a systemd service,
// its create action polled until it completes, its public IPv4, and its deletion.

export interface DigitalOceanOptions {
  token: string;
  apiUrl?: string;
  /** Where droplets go when the request names no region. */
  region: string;
  image: string;
  /** How often the create action is polled, and how long the droplet may take to become active. */
  pollMs?: number;
  activeTimeoutMs?: number;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** DigitalOcean keeps at most 64 KiB of user data. */
const USER_DATA_LIMIT = 64 * 1024;

interface Droplet {
  id: number;
  name: string;
  status: string;
  size_slug: string;
  region: { slug: string };
  networks: { v4: { ip_address: string; type: string }[] };
}

/** Cloud-init for a stock Ubuntu image: the archive unpacked in /opt/app, started and kept running by systemd. */
export function cloudInit(app: DeployRequest['app']): string {
  if (/[\r\n]/.test(app.start)) throw new InvalidInput('The start command must be one line.');
  const execStart = `/bin/sh -c ${JSON.stringify(`exec ${app.start}`)}`;
  return [
    '#cloud-config',
    'write_files:',
    '  - path: /opt/app.tar.gz',
    '    encoding: b64',
    `    content: ${Buffer.from(app.archive).toString('base64')}`,
    '  - path: /etc/systemd/system/atelier-app.service',
    '    content: |',
    '      [Unit]',
    '      Description=The app Atelier deployed',
    '      After=network-online.target',
    '      [Service]',
    '      WorkingDirectory=/opt/app',
    `      Environment=PORT=${app.port}`,
    `      ExecStart=${execStart}`,
    '      Restart=always',
    '      [Install]',
    '      WantedBy=multi-user.target',
    'runcmd:',
    '  - mkdir -p /opt/app',
    '  - tar -xzf /opt/app.tar.gz -C /opt/app',
    '  - systemctl daemon-reload',
    '  - systemctl enable --now atelier-app',
    '',
  ].join('\n');
}

export function digitalOceanProvider(options: DigitalOceanOptions): DeployProvider {
  const base = `${(options.apiUrl ?? 'https://api.digitalocean.com').replace(/\/+$/, '')}/v2`;
  const fetchImpl = options.fetchImpl ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pollMs = options.pollMs ?? 5_000;
  const activeTimeoutMs = options.activeTimeoutMs ?? 5 * 60_000;

  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new Unavailable(`DigitalOcean could not be reached (${error instanceof Error ? error.message : error}).`);
    }
    const text = await response.text();
    const parsed = (text ? JSON.parse(text) : null) as T & { message?: string };
    if (response.ok || response.status === 404) return { status: response.status, body: parsed };
    const said = typeof parsed?.message === 'string' ? parsed.message : `status ${response.status}`;
    if (response.status === 429) {
      const reset = Number(response.headers.get('ratelimit-reset'));
      const wait = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
      throw new Unavailable(`DigitalOcean's rate limit is reached${wait}; try again later.`);
    }
    if (response.status === 401 || response.status === 403)
      throw new Unavailable(`DigitalOcean refused this server's token (${said}); the operator must replace it.`);
    if (response.status === 422) throw new InvalidInput(`DigitalOcean refused the droplet: ${said}`);
    throw new Unavailable(`DigitalOcean answered ${response.status} (${said}); try again later.`);
  }

  const destroy = async (externalId: string) => {
    // Gone already (404) counts as destroyed.
    await call('DELETE', `/droplets/${encodeURIComponent(externalId)}`);
  };

  return {
    name: 'digitalocean',

    async sizes(): Promise<DeploySize[]> {
      const { body } = await call<{
        sizes: {
          slug: string;
          price_hourly: number;
          vcpus: number;
          memory: number;
          regions: string[];
          available: boolean;
        }[];
      }>('GET', '/sizes?per_page=200');
      return body.sizes
        .filter((s) => s.available)
        .map((s) => ({
          slug: s.slug,
          hourlyCostMicros: BigInt(Math.round(s.price_hourly * 1_000_000)),
          vcpus: s.vcpus,
          memoryMb: s.memory,
          regions: s.regions,
        }));
    },

    async create(request) {
      const size = (await this.sizes()).find((s) => s.slug === request.size);
      if (!size) throw new InvalidInput(`DigitalOcean has no size "${request.size}" available.`);
      const userData = cloudInit(request.app);
      if (Buffer.byteLength(userData) > USER_DATA_LIMIT)
        throw new InvalidInput(
          `The app is too large to send as a droplet's user data (${Math.ceil(Buffer.byteLength(userData) / 1024)} KiB of 64 KiB); leave build output and dependencies out of it.`,
        );
      const region = request.region ?? options.region;
      const created = await call<{ droplet: Droplet; links: { actions?: { id: number; rel: string }[] } }>(
        'POST',
        '/droplets',
        {
          name: request.name,
          region,
          size: request.size,
          image: options.image,
          user_data: userData,
          tags: ['atelier'],
        },
      );
      const id = String(created.body.droplet.id);
      const action = created.body.links.actions?.find((a) => a.rel === 'create');
      try {
        // Time is counted in the waits between polls (the calls themselves are quick), so a test's clock is the sleep.
        for (let waited = 0; ; waited += pollMs) {
          const state = action
            ? (await call<{ action: { status: string } }>('GET', `/actions/${action.id}`)).body.action.status
            : (await call<{ droplet: Droplet }>('GET', `/droplets/${id}`)).body.droplet.status;
          if (state === 'completed' || state === 'active') break;
          if (state === 'errored')
            throw new Unavailable(`DigitalOcean could not create the droplet ${request.name}; nothing was charged.`);
          if (waited >= activeTimeoutMs)
            throw new Unavailable(
              `The droplet ${request.name} did not become active within ${Math.round(activeTimeoutMs / 60_000)} min; it was deleted and nothing was charged.`,
            );
          await sleep(pollMs);
        }
        const { body } = await call<{ droplet: Droplet }>('GET', `/droplets/${id}`);
        const ip = body.droplet.networks.v4.find((n) => n.type === 'public')?.ip_address ?? null;
        if (!ip) throw new Unavailable(`The droplet ${request.name} has no public address; it was deleted.`);
        return {
          externalId: id,
          ip,
          url: `http://${ip}:${request.app.port}`,
          region: body.droplet.region.slug,
          sizeSlug: body.droplet.size_slug,
          hourlyCostMicros: size.hourlyCostMicros,
        };
      } catch (error) {
        // Nothing is left behind: a droplet that did not come up is deleted.
        await destroy(id).catch(() => undefined);
        throw error;
      }
    },

    destroy,
  };
}
