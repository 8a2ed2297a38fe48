// The Features dialog's list. The spec asks for hardcoded sample features: nothing tracks
// features yet, so these samples are the whole list. Names are i18n keys (workspace:features.samples).

export const FEATURE_STATUSES = ['warning', 'completed', 'error', 'pending'] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

export type SampleFeatureId = 'signIn' | 'checkout' | 'searchIndex' | 'darkMode' | 'emailDigest' | 'csvExport';

export interface SampleFeature {
  id: SampleFeatureId;
  status: FeatureStatus;
}

export const SAMPLE_FEATURES: readonly SampleFeature[] = [
  { id: 'signIn', status: 'completed' },
  { id: 'checkout', status: 'warning' },
  { id: 'searchIndex', status: 'error' },
  { id: 'darkMode', status: 'pending' },
  { id: 'emailDigest', status: 'completed' },
  { id: 'csvExport', status: 'pending' },
];

/** The features whose (translated) name contains the query, ignoring case and surrounding spaces; all of them for an empty query. */
export function matchingFeatures<T extends { name: string }>(
  features: readonly T[],
  query: string,
  locale?: string,
): T[] {
  const wanted = query.trim().toLocaleLowerCase(locale);
  return features.filter((feature) => feature.name.toLocaleLowerCase(locale).includes(wanted));
}
