/** US dollars in the reader's language, with between `minDecimals` and `maxDecimals` decimals. */
export const usd = (amount: number, language: string, minDecimals: number, maxDecimals: number) =>
  new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: minDecimals,
    maximumFractionDigits: maxDecimals,
  }).format(amount);

/**
 * The spec's money figures, in the reader's language: totals and balances with 2 decimals, usage
 * rows, metrics and budgets with 4. A total that is not zero yet rounds to $0.00 keeps its 4
 * decimals, so a subtotal never reads $0.00 beside the −$0.0008 it adds up.
 */
export const money = {
  total: (dollars: number, language: string) =>
    dollars !== 0 && Math.abs(dollars) < 0.005 ? usd(dollars, language, 2, 4) : usd(dollars, language, 2, 2),
  usage: (dollars: number, language: string) => usd(dollars, language, 4, 4),
};
