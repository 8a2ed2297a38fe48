import type { ModelMessage } from 'ai';
import { z } from 'zod';
import { executeBash } from '../tools/execute-bash.ts';
import { ToolInputError, zodTool, type AgentTool, type ToolOutcome } from '../tools/tool.ts';
import { appDirectory, archiveDirectory } from './archive.ts';
import type { DeployPlan, DevopsDeployment, DevopsHost, DevopsSize } from './types.ts';

/** Dollars per hour as the agent reports them: cents, or the fraction a cheap size needs. */
export const perHour = (micros: bigint) => {
  const dollars = Number(micros) / 1_000_000;
  return `$${dollars.toFixed(dollars > 0 && dollars < 0.01 ? 5 : 2)}/hour`;
};

const text = (content: string): ToolOutcome => ({ observation: 'run', content, extras: {} });

const HEALTH_ATTEMPTS = 40;
const HEALTH_INTERVAL_MS = 3_000;

const deploymentLine = (d: DevopsDeployment) =>
  `${d.name} (${d.environment}): ${d.url ?? 'no address yet'}, size ${d.size} in ${d.region}, ${perHour(d.hourlyCostMicros)}, $${d.totalCostUsd.toFixed(4)} so far`;

const sizeLine = (s: DevopsSize) =>
  `${s.slug}: ${s.vcpus} vCPU, ${s.memoryMb} MB memory, ${perHour(s.hourlyCostMicros)}, regions ${s.regions.join(', ')}`;

const NAME = /^[a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?$/;

const planSchema = z.object({
  name: z
    .string()
    .regex(NAME, 'a host name: lowercase letters, digits, dots and dashes, at most 63 characters')
    .describe('The deployment (machine) name, e.g. todo-staging.'),
  environment: z.enum(['staging', 'production']).describe('Which environment this deployment is.'),
  directory: z.string().min(1).describe("The app's directory inside the workspace ('.' for the workspace itself)."),
  start: z
    .string()
    .min(1)
    .describe('The shell command that starts the app in its directory; the app must listen on $PORT.'),
  port: z.number().int().min(1).max(65535).describe('The port the app listens on when PORT is not set by the target.'),
  size: z.string().min(1).describe('A size slug from list_sizes.'),
  region: z.string().min(1).optional().describe('A region the size is offered in; the default region when omitted.'),
});

/** Plans proposed in earlier turns (the user has answered since), the latest per name. */
export function proposedPlans(context: readonly ModelMessage[]): Map<string, DeployPlan> {
  const plans = new Map<string, DeployPlan>();
  for (const message of context) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call' || part.toolName !== 'propose_deployment') continue;
      const parsed = planSchema.safeParse(part.input);
      if (parsed.success) plans.set(parsed.data.name, { ...parsed.data, region: parsed.data.region ?? null });
    }
  }
  return plans;
}

async function sizeOf(host: DevopsHost, slug: string): Promise<DevopsSize> {
  const sizes = await host.sizes();
  const size = sizes.find((s) => s.slug === slug);
  if (!size) throw new ToolInputError(`There is no size ${slug}. Sizes: ${sizes.map((s) => s.slug).join(', ')}.`);
  return size;
}

/** Fetches the app until it answers below 500, or gives up after about two minutes. */
async function healthCheck(host: DevopsHost, url: string, signal: AbortSignal): Promise<string> {
  let last = 'no answer';
  for (let attempt = 1; attempt <= HEALTH_ATTEMPTS; attempt++) {
    try {
      const status = await host.probe(url, signal);
      if (status < 500) return `healthy (HTTP ${status})`;
      last = `HTTP ${status}`;
    } catch (error) {
      if (signal.aborted) throw error;
      last = error instanceof Error ? error.message : String(error);
    }
    if (attempt < HEALTH_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
  }
  return `not answering yet (${last}); it may still be starting`;
}

/**
 * The DevOps agent's tools on one conversation. `deploy` only runs a plan proposed in an earlier
 * turn, so the user has seen its size and hourly price and answered before anything costs money.
 */
export function devopsTools(host: DevopsHost, earlierTurns: readonly ModelMessage[]): AgentTool<never>[] {
  const plans = proposedPlans(earlierTurns);
  const tools = [
    executeBash,
    zodTool({
      name: 'list_sizes',
      description: `The machine sizes of the deploy target (${host.target}) with their hourly prices and regions.`,
      actionKind: 'run',
      schema: z.object({}),
      describe: () => ({ action: 'run', message: 'Listing sizes', args: {} }),
      run: async () => text((await host.sizes()).map(sizeLine).join('\n')),
    }),
    zodTool({
      name: 'propose_deployment',
      description:
        'Record a deployment plan (name, environment, app directory, start command, port, size, region). ' +
        'Then tell the user the plan with its hourly price and ask them to confirm: deploy runs a plan only after the user answered.',
      actionKind: 'run',
      schema: planSchema,
      describe: (plan) => ({ action: 'run', message: `Planning ${plan.name}`, args: {} }),
      async run(plan) {
        const size = await sizeOf(host, plan.size);
        if (plan.region && !size.regions.includes(plan.region))
          throw new ToolInputError(`${plan.size} is offered in ${size.regions.join(', ')}, not ${plan.region}.`);
        await appDirectory(host.runtime, plan.directory);
        return text(
          `Plan recorded: ${plan.name} (${plan.environment}) from ${plan.directory}, started with \`${plan.start}\`, ` +
            `on ${size.slug} (${size.vcpus} vCPU, ${size.memoryMb} MB) at ${perHour(size.hourlyCostMicros)}. ` +
            'Ask the user to confirm before calling deploy.',
        );
      },
    }),
    zodTool({
      name: 'deploy',
      description:
        'Deploy a plan the user confirmed: packs its directory, provisions the machine, starts the app and checks that it answers.',
      actionKind: 'run',
      schema: z.object({ name: z.string().describe('The name of the confirmed plan.') }),
      describe: (input) => ({ action: 'run', message: `Deploying ${input.name}`, args: {} }),
      async run(input, { signal }) {
        const plan = plans.get(input.name);
        if (!plan)
          throw new ToolInputError(
            `No confirmed plan named ${input.name}: call propose_deployment, tell the user the plan and its price, and deploy after they agree.`,
          );
        const size = await sizeOf(host, plan.size);
        await host.progress(`Deploying ${plan.name} on ${size.slug} (${perHour(size.hourlyCostMicros)})…`);
        const archive = await archiveDirectory(host.runtime, plan.directory);
        const deployed = await host.deploy(plan, archive);
        await host.progress(`${plan.name} is up; checking that it answers…`);
        const health = deployed.url ? await healthCheck(host, deployed.url, signal) : 'no address to check';
        return text(`Deployed ${deploymentLine(deployed)}. Health check: ${health}.`);
      },
    }),
    zodTool({
      name: 'list_deployments',
      description: "The conversation's live deployments with their addresses and costs.",
      actionKind: 'run',
      schema: z.object({}),
      describe: () => ({ action: 'run', message: 'Listing deployments', args: {} }),
      async run() {
        const live = await host.deployments();
        return text(live.length ? live.map(deploymentLine).join('\n') : 'No live deployments.');
      },
    }),
    zodTool({
      name: 'delete_deployment',
      description: 'Tear a deployment down; its cost stops.',
      actionKind: 'run',
      schema: z.object({ name: z.string().describe('The deployment name.') }),
      describe: (input) => ({ action: 'run', message: `Deleting ${input.name}`, args: {} }),
      async run(input) {
        await host.destroy(input.name);
        return text(`Deleted ${input.name}; its cost has stopped.`);
      },
    }),
    zodTool({
      name: 'complete_workflow',
      description:
        'End the DevOps workflow with a final message to the user (what runs where, and what it costs per hour). The tab then accepts no more messages.',
      actionKind: 'finish',
      schema: z.object({ message: z.string().min(1).describe('The final message to the user.') }),
      describe: (input) => ({ action: 'finish', message: input.message, args: {} }),
    }),
  ];
  // Each tool receives only its own parsed input back (as the agent's registry does).
  return tools as AgentTool<never>[];
}
