import { createFileRoute } from '@tanstack/react-router';
import { McpTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/mcp')({
  component: McpTab,
});
