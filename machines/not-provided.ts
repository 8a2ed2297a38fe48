import { fromCallback, fromPromise, type EventObject } from 'xstate';

// Placeholders for side effects: a machine names them, the app (or a test) supplies them with `machine.provide()`.

function missing(name: string): Error {
  return new Error(`"${name}" is a side effect: supply it with machine.provide()`);
}

export function notProvidedAction<TParams = undefined>(name: string) {
  return (_args: unknown, _params: TParams): void => {
    throw missing(name);
  };
}

export function notProvidedPromise<TOutput, TInput = void>(name: string) {
  return fromPromise<TOutput, TInput>(() => Promise.reject(missing(name)));
}

export function notProvidedCallback<TSentBack extends EventObject, TInput = void>(name: string) {
  return fromCallback<EventObject, TInput, TSentBack>(() => {
    throw missing(name);
  });
}
