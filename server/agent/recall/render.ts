import type { EventExtras } from '../tools/tool.ts';

const section = (tag: string, body: string) => `<${tag}>\n${body.trim()}\n</${tag}>`;

/** A recall observation as the model reads it (a user-side message). */
export function renderRecall(extras: EventExtras): string {
  const parts: string[] = [];
  if (extras.recall_type === 'workspace_context') {
    const hosts = Object.entries(extras.runtime_hosts ?? {});
    parts.push(
      section(
        'RUNTIME_INFORMATION',
        [
          `Today's date is ${extras.date ?? ''}.`,
          hosts.length > 0
            ? `Apps you serve are reachable by the user at:\n${hosts.map(([url, port]) => `* ${url} (serve on port ${port}, bound to 0.0.0.0)`).join('\n')}`
            : '',
        ]
          .filter(Boolean)
          .join('\n'),
      ),
    );
    if (extras.repo_name)
      parts.push(
        section(
          'REPOSITORY_INFO',
          `The repository ${extras.repo_name} is checked out at ${extras.repo_directory || 'the workspace root'}.`,
        ),
      );
    if (extras.repo_instructions) parts.push(section('REPOSITORY_INSTRUCTIONS', extras.repo_instructions));
    if (extras.additional_agent_instructions)
      parts.push(section('CONVERSATION_INSTRUCTIONS', extras.additional_agent_instructions));
    const secrets = Object.entries(extras.custom_secrets_descriptions ?? {});
    if (secrets.length > 0) {
      parts.push(
        section(
          'CUSTOM_SECRETS',
          `These secrets are set as environment variables in the shell; use them by name and never print their values:\n${secrets.map(([name, description]) => `* $${name}${description ? `: ${description}` : ''}`).join('\n')}`,
        ),
      );
    }
  }
  // A later recall carries the repository's instructions only when they changed.
  if (extras.recall_type === 'knowledge' && extras.repo_instructions !== undefined)
    parts.push(
      section(
        'REPOSITORY_INSTRUCTIONS',
        extras.repo_instructions
          ? `The repository's instructions changed; from now on they are:\n${extras.repo_instructions}`
          : "The repository's instructions were removed; the earlier ones no longer apply.",
      ),
    );
  for (const entry of extras.microagent_knowledge ?? []) {
    parts.push(
      section(
        'EXTRA_INFO',
        `The following information was found because the message mentions "${entry.trigger}":\n${entry.content}`,
      ),
    );
  }
  return parts.join('\n\n');
}
