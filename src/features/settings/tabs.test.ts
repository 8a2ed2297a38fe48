import { describe, expect, it } from 'vitest';
import { SETTINGS_TABS, settingsRedirect, settingsTabs } from './tabs.ts';

describe('settings tabs', () => {
  it('lists the spec tabs of each mode in its order', () => {
    expect(settingsTabs('saas')).toEqual(['user', 'integrations', 'app', 'billing', 'secrets', 'apiKeys']);
    expect(settingsTabs('oss')).toEqual(['llm', 'mcp', 'integrations', 'app', 'secrets']);
  });

  it('sends /settings to /settings/user in saas mode and keeps it, the model tab, in oss mode', () => {
    expect(settingsRedirect('saas', 'llm')).toBe('/settings/user');
    expect(settingsRedirect('oss', 'llm')).toBeNull();
  });

  it('sends the saas-only tabs to /settings in oss mode', () => {
    for (const tab of ['user', 'billing', 'apiKeys'] as const) {
      expect(settingsRedirect('oss', tab)).toBe('/settings');
      expect(settingsRedirect('saas', tab)).toBeNull();
    }
  });

  it('shows the tabs of both modes in both', () => {
    for (const tab of ['integrations', 'app', 'secrets', 'mcp'] as const) {
      expect(settingsRedirect('oss', tab)).toBeNull();
      expect(settingsRedirect('saas', tab)).toBeNull();
    }
  });

  it('gives every tab its own route', () => {
    expect(new Set(Object.values(SETTINGS_TABS)).size).toBe(Object.keys(SETTINGS_TABS).length);
  });
});
