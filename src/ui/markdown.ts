import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Links in messages open in a new tab, without giving that tab a handle on this one.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** A message's markdown as sanitised HTML (GitHub-flavoured, line breaks kept). */
export function markdownToHtml(markdown: string): string {
  return DOMPurify.sanitize(marked.parse(markdown, { async: false, gfm: true, breaks: true }));
}
