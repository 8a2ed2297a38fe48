import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { repositoryPickerMachine, selectPicked } from '../../../machines/repository-picker.ts';
import type { GitProvider } from '../../api/git-providers.ts';
import { repositoryRequests } from './repositories.ts';
import { RepositoryPicker } from './RepositoryPicker.tsx';

/** What a new conversation is started on: a repository, its provider and a branch. */
export interface RepositoryChoice {
  repository: string;
  provider: GitProvider;
  branch: string;
}

/** The picker of one provider's repositories; another provider starts a picker of its own. */
function ProviderPicker(props: {
  provider: GitProvider;
  providers: readonly GitProvider[];
  onProviderChange: (provider: GitProvider) => void;
  onChoice: (choice: RepositoryChoice | null) => void;
}) {
  const { provider, onChoice } = props;
  const calls = repositoryRequests(provider);
  const picker = useActorRef(
    repositoryPickerMachine.provide({
      actors: {
        loadPage: fromPromise(({ input }) => calls.page(input.page)),
        search: fromPromise(({ input }) => calls.search(input.query)),
        loadBranches: fromPromise(({ input }) => calls.branches(input.repository)),
      },
    }),
  );
  const picked = useSelector(picker, selectPicked);
  const repository = picked?.repository.full_name;
  const branch = picked?.branch;
  useEffect(
    () => onChoice(repository && branch ? { repository, provider, branch } : null),
    [repository, branch, provider, onChoice],
  );
  return (
    <RepositoryPicker
      picker={picker}
      providers={props.providers}
      provider={provider}
      onProviderChange={props.onProviderChange}
    />
  );
}

/** The home page's repository choice across the connected providers, and what acts on it (`children`). */
export function RepositoryChooser(props: {
  providers: readonly GitProvider[];
  onChoice: (choice: RepositoryChoice | null) => void;
  children: ReactNode;
}) {
  const [provider, setProvider] = useState<GitProvider | null>(null);
  const current = provider && props.providers.includes(provider) ? provider : (props.providers[0] as GitProvider);
  return (
    <>
      <ProviderPicker
        key={current}
        provider={current}
        providers={props.providers}
        onProviderChange={setProvider}
        onChoice={props.onChoice}
      />
      {props.children}
    </>
  );
}
