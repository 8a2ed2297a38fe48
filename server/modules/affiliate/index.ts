import type { Db } from '../../db/index.ts';
import type { AffiliateAccountsDeps } from './accounts.ts';
import { affiliateHandlers } from './handlers.ts';
import type { AffiliateLinksDeps } from './links.ts';
import { createAffiliates } from './service.ts';

export { listAffiliates, setAffiliateStatus } from './admin.ts';
export { recordPurchaseCommissions, reversePurchaseCommissions } from './commissions.ts';

export function createAffiliateModule({ db, ...deps }: AffiliateAccountsDeps & AffiliateLinksDeps & { db: Db }) {
  const service = createAffiliates(db, deps);
  return { service, handlers: affiliateHandlers(service) };
}
