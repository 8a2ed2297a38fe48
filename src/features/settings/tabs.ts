import type { AppMode } from '../../../machines/session.ts';

/** The settings tabs: each is a route under /settings. */
export const SETTINGS_TABS = {
  llm: '/settings',
  mcp: '/settings/mcp',
  user: '/settings/user',
  integrations: '/settings/integrations',
  app: '/settings/app',
  billing: '/settings/billing',
  secrets: '/settings/secrets',
  apiKeys: '/settings/api-keys',
} as const;

export type SettingsTab = keyof typeof SETTINGS_TABS;

// The spec's tab lists, in its order. saas has no model tab: there the operator's model is used.
const TABS_BY_MODE: Record<AppMode, readonly SettingsTab[]> = {
  saas: ['user', 'integrations', 'app', 'billing', 'secrets', 'apiKeys'],
  oss: ['llm', 'mcp', 'integrations', 'app', 'secrets'],
};

const SAAS_ONLY: readonly SettingsTab[] = ['user', 'billing', 'apiKeys'];

export const settingsTabs = (mode: AppMode): readonly SettingsTab[] => TABS_BY_MODE[mode];

/**
 * Where a settings route sends the user instead of showing its tab, or null: /settings is the
 * model tab in oss mode and goes to /settings/user in saas mode; the saas-only tabs go to
 * /settings in oss mode.
 * /settings/mcp shows in both modes (the spec lists it in oss's tabs only).
 */
export function settingsRedirect(mode: AppMode, tab: SettingsTab): string | null {
  if (mode === 'saas' && tab === 'llm') return SETTINGS_TABS.user;
  if (mode === 'oss' && SAAS_ONLY.includes(tab)) return SETTINGS_TABS.llm;
  return null;
}
