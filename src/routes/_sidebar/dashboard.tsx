import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { FreeCreditBanners } from '../../features/free-credit/index.ts';
import { DashboardPage } from '../../features/home/index.ts';

export const Route = createFileRoute('/_sidebar/dashboard')({
  loader: pageTexts('home'),
  component: () => (
    <>
      <FreeCreditBanners />
      <DashboardPage />
    </>
  ),
});
