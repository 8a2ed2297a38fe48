import { createFileRoute } from '@tanstack/react-router';
import { UserTab } from '../../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings/user')({
  component: UserTab,
});
