import { createFileRoute } from '@tanstack/react-router';
import { TermsPage } from '../features/legal/index.ts';

export const Route = createFileRoute('/terms')({ component: TermsPage });
