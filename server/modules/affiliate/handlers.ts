import { NotAuthenticated } from '../../shared/domain-errors.ts';
import type { Handlers } from '../../shared/operations.ts';
import type { Affiliates } from './service.ts';

export function affiliateHandlers({ accounts, links, reports }: Affiliates): Handlers {
  // The edge authenticates affiliate tokens on the operations that take them.
  const affiliateOf = (ctx: { affiliate: { id: string } | null }) => {
    if (!ctx.affiliate) throw new NotAuthenticated();
    return ctx.affiliate.id;
  };
  return {
    registerAffiliate: async (ctx) => accounts.register(ctx.body, ctx.ip),
    affiliateLogin: async (ctx) => accounts.login(ctx.body, ctx.ip),
    getCurrentAffiliate: async (ctx) => accounts.me(affiliateOf(ctx)),
    affiliateLogout: async (ctx) => {
      affiliateOf(ctx);
      return accounts.logout(ctx.token ?? '');
    },
    listAffiliateLinks: async (ctx) => links.list(affiliateOf(ctx)),
    createAffiliateLink: async (ctx) => links.create(affiliateOf(ctx), ctx.body),
    updateAffiliateLink: async (ctx) => links.rename(affiliateOf(ctx), ctx.params.id, ctx.body.name),
    archiveAffiliateLink: async (ctx) => links.archive(affiliateOf(ctx), ctx.params.id),
    listAffiliateLinkUsers: async (ctx) => reports.linkUsers(affiliateOf(ctx), ctx.params.id),
    listAffiliateLinkAffiliators: async (ctx) => reports.linkAffiliators(affiliateOf(ctx), ctx.params.id),
    getAffiliateEarnings: async (ctx) => reports.earnings(affiliateOf(ctx)),
    recordAffiliateClick: async (ctx) => {
      const agent = ctx.headers['user-agent'];
      return links.click({
        code: ctx.body.code,
        unique: ctx.body.unique,
        ip: ctx.ip,
        userAgent: typeof agent === 'string' ? agent : undefined,
      });
    },
  };
}
