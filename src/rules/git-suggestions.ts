import { suggestionBranch } from './event-display.ts';

// The prompts of the push-to-branch and create-PR suggestions (the chat's suggestions and the
// workspace's File menu): they name the conversation's branch when it may be pushed to, else
// ask for a new branch (never main, master or deploy). The keys are in the chat namespace.

export type SuggestionKind = 'push' | 'pullRequest';

export type SuggestionPrompt =
  | {
      key: 'suggestions.pushPromptBranch' | 'suggestions.prPromptBranch';
      params: { branch: string; repository: string };
    }
  | { key: 'suggestions.pushPromptNewBranch' | 'suggestions.prPromptNewBranch'; params: { repository: string } };

export function suggestionPrompt(
  kind: SuggestionKind,
  conversation: { selected_repository: string | null; selected_branch: string | null },
): SuggestionPrompt {
  const repository = conversation.selected_repository ?? '';
  const branch = suggestionBranch(conversation.selected_branch);
  if (branch === null)
    return {
      key: kind === 'push' ? 'suggestions.pushPromptNewBranch' : 'suggestions.prPromptNewBranch',
      params: { repository },
    };
  return {
    key: kind === 'push' ? 'suggestions.pushPromptBranch' : 'suggestions.prPromptBranch',
    params: { branch, repository },
  };
}

/** Suggestions need a connected git provider and a selected repository. */
export const hasGitTarget = (conversation: { git_provider: string | null; selected_repository: string | null }) =>
  conversation.git_provider !== null && (conversation.selected_repository ?? '') !== '';
