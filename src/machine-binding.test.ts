import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The binding idiom of docs/adr/0022-binding-machines-in-react.md, checked over the application's
// source: a component passes `machine.provide(…)` straight to `useActorRef` (which keeps one actor
// and installs every render's implementations), never a logic kept in useState, useMemo or useRef,
// whose implementations would stay the first render's.

const root = path.resolve(import.meta.dirname, '..');
const MEMO_HOOKS = new Set(['useState', 'useMemo', 'useRef']);
const ACTOR_HOOKS = new Set(['useActorRef', 'useActor', 'useMachine']);

/** Files whose bindings still hold a memoised logic, until the conversation's actor tree replaces them. */
const AWAITING_CONVERSION = [
  'src/features/chat/use-chat-actors.ts',
  'src/features/tabs/devops/DevopsTab.tsx',
  'src/features/workspace/use-workspace.ts',
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const calleeName = (call: ts.CallExpression) => (ts.isIdentifier(call.expression) ? call.expression.text : null);

const isProvideCall = (node: ts.Node) =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === 'provide';

function contains(node: ts.Node, test: (node: ts.Node) => boolean): boolean {
  return test(node) || (ts.forEachChild(node, (child) => contains(child, test) || undefined) ?? false);
}

/** `file:line` of every memoised logic: `.provide(` inside a memo hook, or a memo hook's value given to an actor hook. */
export function memoisedBindings(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  // A memo hook's value, by name, with the line of its hook.
  const memoised = new Map<string, number>();
  const found: number[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isCallExpression(node.initializer)) {
      const hook = calleeName(node.initializer);
      if (hook && MEMO_HOOKS.has(hook)) {
        // `const logic = useMemo(…)` or `const [logic] = useState(…)`.
        const [first] = ts.isArrayBindingPattern(node.name) ? node.name.elements : [node];
        if (first && !ts.isOmittedExpression(first) && ts.isIdentifier(first.name))
          memoised.set(first.name.text, lineOf(node.initializer));
      }
    }
    if (ts.isCallExpression(node)) {
      const hook = calleeName(node);
      if (hook !== null && MEMO_HOOKS.has(hook) && node.arguments.some((argument) => contains(argument, isProvideCall)))
        found.push(lineOf(node));
      const [logic] = node.arguments;
      if (hook !== null && ACTOR_HOOKS.has(hook) && logic && ts.isIdentifier(logic) && memoised.has(logic.text))
        found.push(memoised.get(logic.text) ?? lineOf(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(found)].map((line) => `${path.relative(root, file).split(path.sep).join('/')}:${line}`);
}

describe('binding machines in React', () => {
  it('gives useActorRef the machine with its implementations, never a logic kept in useState, useMemo or useRef', () => {
    const offenders = sourceFiles(path.join(root, 'src')).flatMap((file) =>
      memoisedBindings(file, fs.readFileSync(file, 'utf8')),
    );
    const files = [...new Set(offenders.map((offender) => offender.replace(/:\d+$/, '')))].sort();
    expect(files, offenders.join('\n')).toEqual(AWAITING_CONVERSION);
  });

  it('finds each form of a memoised logic', () => {
    const file = path.join(root, 'src/example.tsx');
    const component = (body: string) => `function Example() {\n${body}\n}`;
    expect(memoisedBindings(file, component('const [logic] = useState(() => m.provide({}));'))).toEqual([
      'src/example.tsx:2',
    ]);
    expect(memoisedBindings(file, component('const logic = useMemo(() => m.provide({}), [a]);'))).toEqual([
      'src/example.tsx:2',
    ]);
    expect(
      memoisedBindings(file, component('const [logic] = useState(() => createLogic(a));\nuseActorRef(logic);')),
    ).toEqual(['src/example.tsx:2']);
    expect(memoisedBindings(file, component('const actor = useActorRef(m.provide({ actions: { a } }));'))).toEqual([]);
    expect(memoisedBindings(file, `const logic = m.provide({});\n${component('useActorRef(logic);')}`)).toEqual([]);
  });
});
