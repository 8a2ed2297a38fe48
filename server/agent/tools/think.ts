import { z } from 'zod';
import { zodTool } from './tool.ts';

export const think = zodTool({
  name: 'think',
  description:
    'Think something through without acting: plan the next steps, weigh approaches to a bug, or digest what a command showed. ' +
    'It changes nothing and fetches nothing; the thought is kept in the conversation.',
  actionKind: 'think',
  schema: z.object({ thought: z.string().min(1).describe('The thought.') }),
  describe: (input) => ({ action: 'think', message: 'Thinking', args: { thought: input.thought } }),
  run: async () => ({ observation: 'think', content: 'Your thought has been logged.', extras: {} }),
});
