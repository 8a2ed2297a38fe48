import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown.ts';

// Sanitising itself needs a real browser DOM (happy-dom's parser does not let DOMPurify see
// attributes); the browser end-to-end test covers it.
describe('message markdown', () => {
  it('renders GitHub-flavoured markdown with line breaks', () => {
    const html = markdownToHtml('**bold** and `code`\nnext line', {
      shown: new Set(),
      placeholder: () => 'image',
      placeholderClass: 'placeholder',
    });
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<br>');
  });
});
