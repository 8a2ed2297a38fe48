import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { ProfilePage } from '../../features/profile/index.ts';

export const Route = createFileRoute('/_sidebar/profile')({
  loader: pageTexts('billing'),
  component: ProfilePage,
});
