import type { components } from '../../../openapi/schema.d.ts';

type SuggestedTask = components['schemas']['SuggestedTask'];

/** The first message of a conversation started from a suggested task, when the user typed none. */
export function suggestedTaskPrompt(task: SuggestedTask): string {
  const where = `the repository ${task.repo} on ${task.git_provider}`;
  const number = task.issue_number == null ? '' : ` #${task.issue_number}`;
  switch (task.task_type) {
    case 'MERGE_CONFLICTS':
      return `Resolve the merge conflicts of pull request${number} ("${task.title}") in ${where}, then push the result.`;
    case 'FAILING_CHECKS':
      return `Fix the failing checks of pull request${number} ("${task.title}") in ${where}, then push the fix.`;
    case 'UNRESOLVED_COMMENTS':
      return `Address the unresolved review comments of pull request${number} ("${task.title}") in ${where}, then push the changes.`;
    case 'OPEN_ISSUE':
      return `Fix issue${number} ("${task.title}") in ${where} and open a pull request with the fix.`;
    case 'OPEN_PR':
      return `Review and finish pull request${number} ("${task.title}") in ${where}.`;
    case 'CREATE_MICROAGENT':
      return `Create a microagent for ${where} in .openhands/microagents/ that captures: ${task.title}`;
  }
}
