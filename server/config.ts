import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_LIMITS } from './runtime/limits.ts';
import { parseAllowedRanges } from './shared/outbound.ts';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

const url = (name: string) =>
  z
    .string()
    .refine((v) => URL.canParse(v), { message: `${name} must be an absolute URL such as http://localhost:3000` });

/** A git host's OAuth app for sign-in: its client id and secret, and its host when not the cloud one. */
const oauthApp = <P extends 'GITHUB' | 'GITLAB' | 'BITBUCKET'>(prefix: P) =>
  ({
    [`${prefix}_OAUTH_CLIENT_ID`]: z.string().optional(),
    [`${prefix}_OAUTH_CLIENT_SECRET`]: z.string().optional(),
    [`${prefix}_OAUTH_HOST`]: url(`${prefix}_OAUTH_HOST`).optional(),
  }) as Record<`${P}_OAUTH_${'CLIENT_ID' | 'CLIENT_SECRET' | 'HOST'}`, z.ZodOptional<z.ZodString>>;

/** Every setting the server reads, with its default. Documented in README.md § Configuration. */
const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^postgres(ql)?:\/\//.test(v), {
      message: 'DATABASE_URL must start with postgres:// or postgresql://',
    }),
  APP_MODE: z.enum(['saas', 'oss'], { message: 'APP_MODE must be "saas" or "oss"' }).default('saas'),
  PUBLIC_URL: url('PUBLIC_URL').optional(),
  AFFILIATE_API_URL: z.union([z.literal(''), url('AFFILIATE_API_URL')]).default(''),
  VSCODE_URL: url('VSCODE_URL').optional(),
  SUPPORT_EMAIL: z
    .email({ message: 'SUPPORT_EMAIL must be an email address' })
    .default('support@localhost.localdomain'),
  BUILD_NUMBER: z.string().default('3'),
  FEATURE_HIDE_LLM_SETTINGS: flag,
  FEATURE_HIDE_MICROAGENT_MANAGEMENT: flag,
  LLM_PROVIDER: z.enum(['openai', 'anthropic', 'openai-compatible']).optional(),
  LLM_MODEL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_BASE_URL: url('LLM_BASE_URL').optional(),
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^smtps?:\/\//.test(v), { message: 'SMTP_URL must start with smtp:// or smtps://' }),
  STRIPE_SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => !v || /^(sk|rk)_(test|live)_/.test(v), {
      message: 'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_test_…, sk_live_…)',
    }),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .optional()
    .refine((v) => !v || v.startsWith('whsec_'), { message: 'STRIPE_WEBHOOK_SECRET must start with whsec_' }),
  STRIPE_API_URL: url('STRIPE_API_URL').optional(),
  ...oauthApp('GITHUB'),
  ...oauthApp('GITLAB'),
  ...oauthApp('BITBUCKET'),
  DIGITALOCEAN_TOKEN: z.string().optional(),
  DIGITALOCEAN_API_URL: url('DIGITALOCEAN_API_URL').optional(),
  DIGITALOCEAN_REGION: z.string().min(1).default('nyc3'),
  DIGITALOCEAN_IMAGE: z.string().min(1).default('ubuntu-24-04-x64'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: flag,
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  SECRET_KEY: z
    .string()
    .min(32, { message: 'SECRET_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`)' })
    .optional(),
  MAX_RUNNING_CONVERSATIONS_PER_USER: z.coerce.number().int().min(1).default(5),
  NODE_URL: url('NODE_URL').optional(),
  CONVERSATION_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  SANDBOX_REQUIRED: z.enum(['true', 'false', '1', '0']).optional(),
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).default(DEFAULT_LIMITS.memoryMb),
  SANDBOX_PROCESSES: z.coerce.number().int().min(16).default(DEFAULT_LIMITS.processes),
  SANDBOX_CPUS: z.coerce.number().min(0.1).default(DEFAULT_LIMITS.cpus),
  SANDBOX_DISK_MB: z.coerce.number().int().min(16).default(DEFAULT_LIMITS.diskMb),
  SANDBOX_HOST_PORTS: z
    .string()
    .default('')
    .refine(
      (v) => v.split(',').every((p) => !p.trim() || (/^\d+$/.test(p.trim()) && Number(p) >= 1 && Number(p) <= 65535)),
      {
        message: 'SANDBOX_HOST_PORTS must be comma-separated port numbers such as 3001,8080',
      },
    )
    .transform((v) =>
      v
        .split(',')
        .filter((p) => p.trim())
        .map(Number),
    ),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(120),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
  CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(256),
  SOCKETS_PER_USER: z.coerce.number().int().min(1).default(50),
  SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(200),
  OUTBOUND_ALLOWED_RANGES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseAllowedRanges(v);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message:
            'OUTBOUND_ALLOWED_RANGES must be comma-separated addresses or ranges such as 10.0.0.0/8,192.168.1.20',
        });
        return z.NEVER;
      }
    }),
});

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {}

/** Reads and validates the environment once; throws ConfigError listing every bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = environment.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const oauth = (prefix: 'GITHUB' | 'GITLAB' | 'BITBUCKET') => {
    const [clientId, clientSecret] = [e[`${prefix}_OAUTH_CLIENT_ID`], e[`${prefix}_OAUTH_CLIENT_SECRET`]];
    if (!clientId !== !clientSecret)
      throw new ConfigError(
        `Invalid configuration:\n  ${prefix}_OAUTH_CLIENT_ID and ${prefix}_OAUTH_CLIENT_SECRET go together: set both or neither`,
      );
    return clientId && clientSecret
      ? { clientId, clientSecret, host: e[`${prefix}_OAUTH_HOST`]?.replace(/\/+$/, '') ?? null }
      : null;
  };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    appMode: e.APP_MODE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    affiliateApiUrl: e.AFFILIATE_API_URL,
    vscodeUrl: e.VSCODE_URL ?? null,
    supportEmail: e.SUPPORT_EMAIL,
    buildNumber: e.BUILD_NUMBER,
    featureFlags: {
      HIDE_LLM_SETTINGS: e.FEATURE_HIDE_LLM_SETTINGS,
      HIDE_MICROAGENT_MANAGEMENT: e.FEATURE_HIDE_MICROAGENT_MANAGEMENT,
    },
    llm: { provider: e.LLM_PROVIDER, model: e.LLM_MODEL, apiKey: e.LLM_API_KEY, baseUrl: e.LLM_BASE_URL },
    smtpUrl: e.SMTP_URL,
    // Without a Stripe key, purchases go to the test payment provider (test card numbers only).
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
          apiUrl: e.STRIPE_API_URL ?? null,
        }
      : null,
    // Sign-in through a git host (saas mode): the apps the operator registered, by provider.
    oauthApps: { github: oauth('GITHUB'), gitlab: oauth('GITLAB'), bitbucket: oauth('BITBUCKET') },
    // Where the DevOps agent deploys: DigitalOcean with the operator's token, else this machine.
    digitalOcean: e.DIGITALOCEAN_TOKEN
      ? {
          token: e.DIGITALOCEAN_TOKEN,
          apiUrl: e.DIGITALOCEAN_API_URL ?? 'https://api.digitalocean.com',
          region: e.DIGITALOCEAN_REGION,
          image: e.DIGITALOCEAN_IMAGE,
        }
      : null,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    authRateLimit: {
      perIp: e.AUTH_RATE_LIMIT_PER_IP,
      perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
      windowMs: e.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
    },
    secretKey: e.SECRET_KEY,
    maxRunningConversations: e.MAX_RUNNING_CONVERSATIONS_PER_USER,
    connections: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      max: e.MAX_CONNECTIONS,
      perAddress: e.CONNECTIONS_PER_ADDRESS,
    },
    socketLimits: { perUser: e.SOCKETS_PER_USER, perAddress: e.SOCKETS_PER_ADDRESS },
    conversationLeaseMs: e.CONVERSATION_LEASE_SECONDS * 1000,
    sandboxHostPorts: e.SANDBOX_HOST_PORTS,
    // Hosted: requests made because of a user's input reach only public addresses and these ranges.
    outbound: { guarded: e.APP_MODE === 'saas', allowed: e.OUTBOUND_ALLOWED_RANGES },
    // The hosted service never runs a conversation unconfined; a self-hosted one may, warned.
    sandboxRequired:
      e.SANDBOX_REQUIRED === undefined ? e.APP_MODE === 'saas' : ['true', '1'].includes(e.SANDBOX_REQUIRED),
    sandboxLimits: {
      memoryMb: e.SANDBOX_MEMORY_MB,
      processes: e.SANDBOX_PROCESSES,
      cpus: e.SANDBOX_CPUS,
      diskMb: e.SANDBOX_DISK_MB,
    },
    // Listening on every interface: other nodes on this machine reach it on the loopback address.
    nodeUrl: (e.NODE_URL ?? `http://${['0.0.0.0', '::'].includes(e.HOST) ? '127.0.0.1' : e.HOST}:${e.PORT}`).replace(
      /\/$/,
      '',
    ),
  };
}
