import { createFileRoute } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { ClaimCreditPage } from '../../features/free-credit/index.ts';

/** The claim-credit page (the spec leaves its path open): the $100 trial for a verified card. */
export const Route = createFileRoute('/_sidebar/claim-credit')({
  loader: pageTexts('billing'),
  component: ClaimCreditPage,
});
