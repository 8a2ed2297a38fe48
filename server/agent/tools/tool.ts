import { z } from 'zod';
import type { components } from '../../../openapi/schema.d.ts';
import type { RuntimeSession } from '../../runtime/types.ts';

export type ActionKind = components['schemas']['ActionKind'];
export type ObservationKind = components['schemas']['ObservationKind'];
export type EventArgs = components['schemas']['EventArgs'];
export type EventExtras = components['schemas']['EventExtras'];
export type ToolSpec = components['schemas']['ToolSpec'];
/** A JSON Schema object describing a tool's arguments, as sent to the model. */
export type ToolParameters = ToolSpec['parameters'];

/** The action event a tool call becomes (the agent adds thought, risk and tool-call metadata). */
export interface ActionDescription {
  action: ActionKind;
  message: string;
  args: EventArgs;
}

/** The observation event a tool's result becomes. */
export interface ToolOutcome {
  observation: ObservationKind;
  content: string;
  message?: string;
  extras: EventExtras;
  /** True for failures, which the stuck detector counts separately. */
  error?: boolean;
}

export interface ToolContext {
  runtime: RuntimeSession;
  /** Aborted when the user stops or pauses the agent while the tool runs. */
  signal: AbortSignal;
}

export interface AgentTool<TInput = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: ToolParameters;
  /** The action kind of this tool's calls, even when their arguments are invalid. */
  readonly actionKind: ActionKind;
  /** Validates the model's arguments; throws ToolInputError with a message for the model. */
  parse(input: unknown): TInput;
  describe(input: TInput): ActionDescription;
  /** Absent for `finish`, which ends the run instead of producing an observation. */
  run?(input: TInput, context: ToolContext): Promise<ToolOutcome>;
}

/** Arguments the model got wrong; the message goes back to the model so it can correct the call. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

/**
 * Risk the model assigns to its own action; confirmation mode weighs it with static rules
 * (security-analyzer.ts).
 */
export const securityRiskArgument = z
  .enum(['LOW', 'MEDIUM', 'HIGH'])
  .optional()
  .describe(
    'How risky this action is: LOW (read-only or easily undone), MEDIUM (changes the workspace), HIGH (destructive, affects the system or data outside the workspace, or runs code from the network).',
  );

/**
 * A yes/no argument. Models trained on OpenHands send the strings "true" and "false" (OpenHands'
 * own schemas declare them so): both forms are taken, rather than failing the call.
 */
export const flagArgument = () =>
  z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true');

/**
 * A number argument that also takes the number as a string ("1", " 42 "): models send those where
 * they send "true" for flags. The model is told the number's own schema.
 */
export const numberArgument = <T extends z.ZodNumber>(number: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
    number,
  );

/** The arguments without those sent as null: many model families send every optional argument, unused ones as null. */
function withoutNulls(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/** A built-in tool whose arguments are a zod schema; the model sees the schema as JSON Schema. */
export function zodTool<TSchema extends z.ZodType>(
  definition: Omit<AgentTool<z.output<TSchema>>, 'parse' | 'parameters'> & { schema: TSchema },
): AgentTool<z.output<TSchema>> {
  const { schema, ...rest } = definition;
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return {
    ...rest,
    parameters,
    parse(input) {
      const parsed = schema.safeParse(withoutNulls(input));
      if (parsed.success) return parsed.data;
      throw new ToolInputError(`Invalid arguments for ${definition.name}: ${z.prettifyError(parsed.error)}`);
    },
  };
}

/** Keeps the start and the end of a long text, which is where commands put what matters. */
export function truncateMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  const omitted = text.length - 2 * half;
  return `${text.slice(0, half)}\n[... ${omitted} characters omitted ...]\n${text.slice(-half)}`;
}

/** How much of a tool's text output goes into an event (and so into the model context). */
export const OUTPUT_LIMIT = 30_000;
