import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '../../features/profile/index.ts';

export const Route = createFileRoute('/_sidebar/profile')({
  component: ProfilePage,
});
