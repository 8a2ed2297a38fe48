import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type AnyStateMachine } from 'xstate';
import {
  Coverage,
  coverageInspector,
  describePath,
  pathsThroughEveryEdge,
  stateIdsOf,
  stateText,
  withoutPrefixPaths,
} from '../model/model-paths.ts';

// Model-based browser journeys: a journey is a statechart of what a person sees (states) and does
// (events). Its paths are generated with xstate/graph — the shortest path through every edge,
// prefixes dropped, as the statecharts' own model tests do — and each path runs in real Chromium
// against the real server: every event is done in the page, then the page must show what the
// state it leads to says. The file fails unless its paths covered every state and transition.

export interface Journey<TWorld extends { page: Page }> {
  model: AnyStateMachine;
  /** The events the generator tries in every state (a state takes those it has a transition for). */
  events: AnyEventObject[];
  /** What one path starts from: a fresh page, and whatever the path needs beforehand (e.g. an account). */
  start: () => Promise<TWorld>;
  /** What the page shows in each state, by its dotted state path (`stateText`); every leaf state needs one. */
  states: Record<string, (world: TWorld) => Promise<void>>;
  /** What the person does for each event type. */
  steps: Record<string, (world: TWorld, event: AnyEventObject) => Promise<void>>;
  /** Time for one path; the default suits a path of a few page steps. */
  timeout?: number;
}

/** Registers one test per generated path of `journey`, and the check that together they cover the whole model. */
export function journeyTests<TWorld extends { page: Page }>(journey: Journey<TWorld>): void {
  const { model } = journey;
  const paths = withoutPrefixPaths(
    pathsThroughEveryEdge(model, { events: journey.events, summarize: (snapshot) => snapshot.value }),
  );
  // A check or a step named after no state or event of the model would never run: refuse it here.
  const leafStates = new Set(
    stateIdsOf(model)
      .filter((id) => model.getStateNodeById(id).type === 'atomic')
      .map((id) => id.slice(model.id.length + 1)),
  );
  expect(Object.keys(journey.states).sort()).toEqual([...leafStates].sort());
  expect(Object.keys(journey.steps).sort()).toEqual([...new Set(journey.events.map((event) => event.type))].sort());

  const coverage = new Coverage(model);
  for (const path of paths) {
    it(describePath(path), { timeout: journey.timeout ?? 120_000 }, async () => {
      const world = await journey.start();
      const actor = createActor(model, { inspect: coverageInspector(model, coverage) }).start();
      const steps = [];
      await journey.states[stateText(actor.getSnapshot().value)]?.(world);
      for (const { event, state } of path.steps.slice(1)) {
        await journey.steps[event.type]?.(world, event);
        actor.send(event);
        const reached = stateText(actor.getSnapshot().value);
        expect(reached).toBe(stateText(state.value));
        await journey.states[reached]?.(world);
        steps.push({ event: event.type, detail: '', guards: [], state: reached });
      }
      actor.stop();
      // Left open when the path fails, so the failure report can print what the page showed.
      await world.page.close();
      coverage.paths.push({ name: describePath(path), steps });
    });
  }
  afterAll(() => {
    console.log(`journey ${coverage.summary(paths.length)}`);
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });
}
