import { createFileRoute, Navigate } from '@tanstack/react-router';

// The spec's /settings/credits is the billing tab ("credits (billing)").
export const Route = createFileRoute('/_sidebar/settings/credits')({
  component: () => <Navigate to="/settings/billing" replace />,
});
