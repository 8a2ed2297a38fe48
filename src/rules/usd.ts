/** US dollars in the reader's language, with between `minDecimals` and `maxDecimals` decimals. */
export const usd = (amount: number, language: string, minDecimals: number, maxDecimals: number) =>
  new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: minDecimals,
    maximumFractionDigits: maxDecimals,
  }).format(amount);
