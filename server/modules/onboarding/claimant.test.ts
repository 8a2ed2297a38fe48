import { describe, expect, it } from 'vitest';
import { claimantOf } from './claimant.ts';

describe('the person behind an address', () => {
  it('joins the variants one mailbox receives', () => {
    const ada = ['Ada.Lovelace@gmail.com', 'adalovelace+trial@gmail.com', 'a.d.a.lovelace+x+y@GoogleMail.com'];
    expect(new Set(ada.map(claimantOf))).toEqual(new Set(['adalovelace@gmail.com']));
    expect(claimantOf(' Bob+2@Acme.Example ')).toBe('bob@acme.example');
  });

  it('keeps apart what other providers deliver to different mailboxes', () => {
    expect(claimantOf('ada.lovelace@acme.example')).not.toBe(claimantOf('adalovelace@acme.example'));
    expect(claimantOf('ada@acme.example')).not.toBe(claimantOf('ada@acme.example.org'));
  });
});
