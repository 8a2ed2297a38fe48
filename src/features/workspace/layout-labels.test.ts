import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/workspace.json';
import { LAYOUT_CONTROL_LABELS, layoutString } from './layout-labels.ts';

describe('layout strings', () => {
  it('reads tab names and flexlayout labels as workspace keys', () => {
    expect(layoutString('tabs.chat')).toEqual({ tabName: 'tabs.chat' });
    expect(layoutString('flexlayout.ui.maximize.tabset')).toEqual({ control: 'maximise' });
    expect(layoutString('flexlayout.ui.menu.pin')).toBeNull();
  });

  it('has English words for every label it maps', () => {
    for (const key of Object.values(LAYOUT_CONTROL_LABELS)) expect(en.layoutControls[key]).toBeTruthy();
  });
});
