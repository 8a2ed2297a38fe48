import { z } from 'zod';
import { zodTool } from './tool.ts';

export const finish = zodTool({
  name: 'finish',
  description:
    'Finish the task when it is done, or when you cannot go further without the user. ' +
    'The message tells the user what was done, what was not, and how to use the result.',
  actionKind: 'finish',
  schema: z.object({
    message: z.string().min(1).describe('The final message to the user.'),
    // The contract's strings; a model that sends a JSON boolean means the same.
    task_completed: z
      .union([z.enum(['true', 'false', 'partial']), z.boolean()])
      .transform((value) => (typeof value === 'boolean' ? (String(value) as 'true' | 'false') : value))
      .optional()
      .describe('Whether the task was completed: true, false or partial.'),
  }),
  describe: (input) => ({
    action: 'finish',
    message: input.message,
    args: {
      final_thought: input.message,
      outputs: {},
      task_completed:
        input.task_completed === undefined
          ? null
          : ({ true: 'success', false: 'failure', partial: 'partial' } as const)[input.task_completed],
    },
  }),
});
