import type { components } from '../../openapi/schema.d.ts';
import type { RetryPolicy } from './llm/backoff.ts';
import type { StepSignature } from './stuck-detector.ts';

// The agent controller's vocabulary (controller.ts): what it decides on, what it remembers, the
// events it takes, and how a failure becomes the problem it reports.

export type AgentState = components['schemas']['AgentState'];

/** A tool call of the model's reply, reduced to what the control loop decides on. */
export interface PlannedAction {
  /** The tool call id; the session keeps the call itself. */
  id: string;
  needsConfirmation: boolean;
  /** `finish`: announcing it ends the task. */
  finishes: boolean;
}

export interface ModelStep {
  /** What the model said; sent to the user when there are no actions. */
  text: string;
  actions: PlannedAction[];
}

/** Why the run stopped or is waiting, shown to the user. */
export interface Problem {
  reason: string;
  /** Translation key of the error (status_id of the status update). */
  errorId: string;
}

/** A failed model call as the actor reports it. */
export interface ModelFailure extends Problem {
  retryable: boolean;
  retryAfterMs: number | null;
}

export type LimitCheck = { ok: true } | { ok: false; problem: Problem };

export interface AgentControllerContext {
  maxIterations: number;
  retryPolicy: RetryPolicy;
  /** Model calls since the user last started or resumed the task. */
  iterations: number;
  /** Retries of the current model call so far. */
  retries: number;
  retryDelayMs: number;
  pending: PlannedAction[];
  /** Event id of the announced action that runs or awaits confirmation. */
  currentEventId: number | null;
  recentSteps: StepSignature[];
  problem: Problem | null;
  /** A message arrived while loading. */
  startWhenLoaded: boolean;
}

export interface AgentControllerInput {
  maxIterations: number;
  retryPolicy: RetryPolicy;
}

export type AgentControllerEvent =
  | { type: 'USER_MESSAGE' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'STOP' }
  | { type: 'CONFIRM' }
  | { type: 'REJECT' };

export function maxIterationsReason(maxIterations: number): string {
  return `The agent reached the maximum iterations (${maxIterations}) for this task and paused. Send a message to let it continue.`;
}

export function isModelFailure(error: unknown): error is ModelFailure {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ModelFailure).retryable === 'boolean' &&
    typeof (error as ModelFailure).reason === 'string'
  );
}

export function problemOf(error: unknown): Problem {
  if (isModelFailure(error)) return { reason: error.reason, errorId: error.errorId };
  return {
    reason: error instanceof Error ? error.message : String(error),
    errorId: 'AGENT_ERROR$ERROR_ACTION_NOT_EXECUTED',
  };
}
