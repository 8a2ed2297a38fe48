import type { Db } from '../../db/index.ts';
import { createAffiliateAccounts, type AffiliateAccountsDeps } from './accounts.ts';
import { createAffiliateLinks, type AffiliateLinksDeps } from './links.ts';
import { createAffiliateReports } from './reports.ts';

/** The affiliate programme (public-site spec): its accounts, links and clicks. */
export function createAffiliates(db: Db, deps: AffiliateAccountsDeps & AffiliateLinksDeps) {
  return {
    accounts: createAffiliateAccounts(db, deps),
    links: createAffiliateLinks(db, deps),
    reports: createAffiliateReports(db, deps),
  };
}

export type Affiliates = ReturnType<typeof createAffiliates>;
