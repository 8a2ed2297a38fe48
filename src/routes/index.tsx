import { createFileRoute, redirect } from '@tanstack/react-router';

// The public landing page will live here; until then the application's home is the entry.
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/dashboard', replace: true });
  },
});
