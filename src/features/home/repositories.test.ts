import { describe, expect, it } from 'vitest';
import { nextPageOf } from './repositories.ts';

describe('the next page of repositories', () => {
  it('is read from the Link header’s rel="next"', () => {
    expect(
      nextPageOf('</api/user/repositories?selected_provider=github&sort=pushed&page=2&per_page=30>; rel="next"'),
    ).toBe(2);
    expect(nextPageOf('<https://x.example/r?page=9>; rel="last", <https://x.example/r?page=3>; rel="next"')).toBe(3);
  });

  it('is none without the header or its rel="next"', () => {
    expect(nextPageOf(null)).toBeNull();
    expect(nextPageOf('<https://x.example/r?page=9>; rel="last"')).toBeNull();
  });
});
