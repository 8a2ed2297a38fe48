// Shared machinery of the model-based tests: generate paths from a machine's graph, run each
// path against the real machine with fake side effects, and measure which states and which
// transitions of the definition the runs went through.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  createActor,
  fromCallback,
  fromPromise,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getShortestPaths, getStateNodes, type StatePath } from 'xstate/graph';

/** Events that carry Error objects keep their name, message and own fields apart. */
export function serializeEvent(event: EventObject): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    value instanceof Error ? { ...value, errorName: value.name, message: value.message } : value,
  );
}

/**
 * Paths that end with every edge of the machine's graph: a vertex is the pair (previous state,
 * event, next state), so the shortest path to each vertex takes that edge last. `summarize`
 * says which part of a snapshot tells states apart (by default its value and context).
 */
export function pathsThroughEveryEdge<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: {
    /** The events to try; a function when they depend on the state (e.g. the ids the machine holds). */
    events: AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => AnyEventObject[]);
    input?: unknown;
    summarize?: (snapshot: AnyMachineSnapshot) => unknown;
  },
): StatePath<AnyMachineSnapshot, EventObject>[] {
  const eventsOf = (snapshot: AnyMachineSnapshot) =>
    typeof options.events === 'function' ? options.events(snapshot) : options.events;
  const summarize =
    options.summarize ?? ((snapshot: AnyMachineSnapshot) => ({ value: snapshot.value, context: snapshot.context }));
  const key = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify(summarize(snapshot), (_k, v: unknown) => (v instanceof Error ? v.message : v));
  const logic = machine as AnyStateMachine;
  return getShortestPaths(logic, {
    // Only events that the state takes a transition on.
    events: (snapshot) => eventsOf(snapshot).filter((event) => snapshot.can(event)),
    input: options.input,
    serializeEvent,
    serializeState: (snapshot, event, previous) =>
      previous && event ? `${key(previous)} --${serializeEvent(event)}--> ${key(snapshot)}` : key(snapshot),
  }) as StatePath<AnyMachineSnapshot, EventObject>[];
}

/** Removes paths that are a prefix of a longer path: running the longer one checks the same steps. */
export function withoutPrefixPaths<TPath extends StatePath<AnyMachineSnapshot, EventObject>>(paths: TPath[]): TPath[] {
  const signature = (path: TPath) => path.steps.map((step) => serializeEvent(step.event));
  const sorted = [...paths].sort((a, b) => b.steps.length - a.steps.length);
  const kept: TPath[] = [];
  for (const path of sorted) {
    const events = signature(path);
    const covered = kept.some((longer) => {
      const longerEvents = signature(longer);
      return events.every((event, index) => longerEvents[index] === event);
    });
    if (!covered) kept.push(path);
  }
  return kept;
}

function eventDetail(event: EventObject): string {
  const { type: _type, ...rest } = JSON.parse(serializeEvent(event)) as Record<string, unknown>;
  const text = Object.keys(rest).length ? JSON.stringify(rest) : '';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A guard's name: its type, or the function's name for an inline guard. */
function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || '(inline guard)';
  const type = (guard as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : '(guard)';
}

/** A state value as dotted paths: `chatting.steps.idle + chatting.messages.quiet`. */
export function stateText(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, child]) =>
      child === undefined
        ? key
        : stateText(child)
            .split(' + ')
            .map((part) => `${key}.${part}`)
            .join(' + '),
    )
    .join(' + ');
}

function transitionId(transition: AnyTransitionDefinition): string {
  const siblings =
    transition.eventType === ''
      ? (transition.source.always ?? [])
      : (transition.source.transitions.get(transition.eventType) ?? []);
  const index = siblings.indexOf(transition);
  const targets = transition.target?.map((node) => node.id).join(',') ?? '(no target)';
  return `${transition.source.id} on ${transition.eventType || 'always'} #${index} → ${targets}`;
}

/** Every state node of the definition, by id. */
export function stateIdsOf(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map((node) => node.id);
}

/** Every transition of the definition (each guarded branch counts), by a readable id. */
export function transitionIdsOf(machine: AnyStateMachine): string[] {
  return [machine.root, ...getStateNodes(machine.root)].flatMap((node) => [
    ...[...node.transitions.values()].flat().map(transitionId),
    ...(node.always ?? []).map(transitionId),
  ]);
}

/** Ids of the state nodes a snapshot is in, ancestors included. */
function activeStateIds(machineId: string, value: StateValue, prefix: string[] = []): string[] {
  if (typeof value === 'string') return [[machineId, ...prefix, value].join('.')];
  return Object.entries(value).flatMap(([key, child]) => [
    [machineId, ...prefix, key].join('.'),
    ...(child === undefined ? [] : activeStateIds(machineId, child, [...prefix, key])),
  ]);
}

/**
 * An actor's `inspect` option that adds the states and transitions the actor goes through to
 * `coverage`, and names each guard that let a transition through to `onGuard`.
 */
export function coverageInspector(
  machine: AnyStateMachine,
  coverage: Coverage,
  onGuard: (name: string) => void = () => undefined,
): (inspection: InspectionEvent) => void {
  return (inspection) => {
    if (inspection.type === '@xstate.microstep') {
      for (const transition of inspection._transitions) {
        if (transition.guard) onGuard(guardName(transition.guard));
        coverage.transitions.add(transitionId(transition));
        // A transient state (left at once by an always transition) is never a snapshot, but the machine was in it.
        coverage.states.add(transition.source.id);
      }
    }
    if (inspection.type === '@xstate.snapshot' && inspection.actorRef.sessionId === inspection.rootId) {
      const value = (inspection.snapshot as AnyMachineSnapshot).value;
      for (const id of activeStateIds(machine.id, value)) coverage.states.add(id);
    }
  };
}

/** One step of a generated path as a tester reads it: the event, the guards that let it through, the state after. */
export interface PathStep {
  event: string;
  /** The event's other fields, as JSON (cut at 120 characters). */
  detail: string;
  guards: string[];
  state: string;
}

export class Coverage {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();
  /** The paths run, in order, for `npm run paths`. */
  readonly paths: { name: string; steps: PathStep[] }[] = [];

  constructor(private readonly machine: AnyStateMachine) {}

  missing() {
    return {
      states: stateIdsOf(this.machine).filter((id) => !this.states.has(id)),
      transitions: transitionIdsOf(this.machine).filter((id) => !this.transitions.has(id)),
    };
  }

  /** With ATELIER_PATHS_DIR set (`npm run paths`), writes what this file generated and covered there. */
  private export(states: string[], transitions: string[]): void {
    const dir = process.env['ATELIER_PATHS_DIR'];
    if (!dir) return;
    const file = path.join(dir, `${this.machine.id}.${process.pid}.${this.paths.length}.${Date.now()}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({
        machine: this.machine.id,
        states,
        transitions,
        reachedStates: states.filter((id) => this.states.has(id)),
        reachedTransitions: transitions.filter((id) => this.transitions.has(id)),
        paths: this.paths,
      }),
    );
  }

  summary(paths: number): string {
    const states = stateIdsOf(this.machine);
    const transitions = transitionIdsOf(this.machine);
    this.export(states, transitions);
    const reachedStates = states.filter((id) => this.states.has(id)).length;
    const reachedTransitions = transitions.filter((id) => this.transitions.has(id)).length;
    return `${this.machine.id}: ${reachedStates}/${states.length} states, ${reachedTransitions}/${transitions.length} transitions covered by ${paths} generated paths`;
  }
}

export interface StepRecord {
  event: EventObject;
  before: AnyMachineSnapshot;
  after: AnyMachineSnapshot;
  /** Names of the provided actions that ran during the step, in order. */
  effects: string[];
  /** The params each of those actions ran with, in the same order. */
  effectParams: unknown[];
  /** Fake promise actors started during the step, with their input. */
  started: { src: string; input: unknown }[];
}

export interface FakeSideEffects {
  /** Promise actors: a path's `xstate.done.actor.<src>` / `xstate.error.actor.<src>` step settles them. */
  promises: string[];
  /** Callback actors, with the event types they send to their parent. */
  callbacks: Record<string, string[]>;
  /** Actions that are side effects; the fakes record that they ran. */
  actions: string[];
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

/**
 * Runs `path` against `machine` with fake side effects and checks that every step reaches the
 * state the graph predicted. Invocation ids must equal their actor's src name.
 */
export async function runPath(
  machine: AnyStateMachine,
  path: StatePath<AnyMachineSnapshot, EventObject>,
  options: {
    fakes: FakeSideEffects;
    input?: unknown;
    coverage: Coverage;
    expectStep?: (step: StepRecord) => void;
    /** The context as the paths were told apart (pathsThroughEveryEdge's `summarize`): what is compared with the model's. */
    summarize?: (snapshot: AnyMachineSnapshot) => { context: unknown };
  },
): Promise<AnyMachineSnapshot> {
  const { fakes, coverage } = options;
  const settle = new Map<string, { resolve: (output: unknown) => void; reject: (error: unknown) => void }>();
  // Every running instance of a callback actor (a machine may spawn several of one src); any of them can send.
  const sendBacks = new Map<string, Set<(event: EventObject) => void>>();
  let effects: string[] = [];
  let effectParams: unknown[] = [];
  let started: { src: string; input: unknown }[] = [];
  let guards: string[] = [];
  const recorded: PathStep[] = [];

  const actors: Record<string, AnyActorLogic> = {};
  for (const src of fakes.promises) {
    actors[src] = fromPromise<unknown, unknown>(
      ({ input }) =>
        new Promise((resolve, reject) => {
          started.push({ src, input });
          settle.set(src, { resolve, reject });
        }),
    );
  }
  for (const src of Object.keys(fakes.callbacks)) {
    actors[src] = fromCallback(({ sendBack }) => {
      const running = sendBacks.get(src) ?? new Set();
      sendBacks.set(src, running.add(sendBack));
      return () => running.delete(sendBack);
    });
  }
  const actions = Object.fromEntries(
    fakes.actions.map((name) => [
      name,
      (_: unknown, params: unknown) => {
        effects.push(name);
        effectParams.push(params);
      },
    ]),
  );
  const callbackEventSources = new Map(
    Object.entries(fakes.callbacks).flatMap(([src, types]) => types.map((type) => [type, src] as const)),
  );

  const actor = createActor(machine.provide({ actors, actions }), {
    input: options.input,
    inspect: coverageInspector(machine, coverage, (guard) => guards.push(guard)),
  });
  actor.start();
  await flush();

  for (const step of path.steps.slice(1)) {
    const { event } = step;
    const before = actor.getSnapshot();
    effects = [];
    effectParams = [];
    started = [];
    guards = [];
    const settled = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (settled) {
      const [, outcome, src] = settled;
      const pending = settle.get(src ?? '');
      if (!pending) throw new Error(`${event.type}: the actor "${src}" is not running`);
      settle.delete(src ?? '');
      if (outcome === 'done') pending.resolve((event as { output?: unknown }).output);
      else pending.reject((event as { error?: unknown }).error);
    } else if (callbackEventSources.has(event.type)) {
      const src = callbackEventSources.get(event.type) ?? '';
      const [sendBack] = sendBacks.get(src) ?? [];
      if (!sendBack) throw new Error(`${event.type}: the actor "${src}" is not running`);
      sendBack(event);
    } else {
      actor.send(event);
    }
    await flush();
    const after = actor.getSnapshot();
    if (JSON.stringify(after.value) !== JSON.stringify(step.state.value)) {
      throw new Error(
        `after ${serializeEvent(event)} the machine is in ${JSON.stringify(after.value)}, the model predicted ${JSON.stringify(step.state.value)}`,
      );
    }
    // As JSON, compared whatever the order of keys: objects built along different paths list them differently.
    const compared = (snapshot: AnyMachineSnapshot) =>
      options.summarize ? options.summarize(snapshot).context : snapshot.context;
    if (!isDeepStrictEqual(asJson(compared(after)), asJson(compared(step.state)))) {
      throw new Error(
        `after ${serializeEvent(event)} the context is ${JSON.stringify(after.context)}, the model predicted ${JSON.stringify(step.state.context)}`,
      );
    }
    options.expectStep?.({ event, before, after, effects, effectParams, started });
    recorded.push({ event: event.type, detail: eventDetail(event), guards, state: stateText(after.value) });
  }
  coverage.paths.push({ name: describePath(path), steps: recorded });
  actor.stop();
  return actor.getSnapshot();
}

/** "LOG_IN → xstate.done.actor.logIn → …" for test names. */
export function describePath(path: StatePath<AnyMachineSnapshot, EventObject>): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const name = event.type.replace(/^xstate\.(done|error)\.actor\./, '$1:');
    return 'field' in event ? `${name}(${String(event.field)})` : name;
  });
  return `${events.join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;
}
