import DOMPurify from 'dompurify';
import { Marked } from 'marked';

// Messages are written by the agent, and so by whatever text it read (a web page, a file, a
// prompt injection): nothing in them may act without a click. HTML written into a message is
// shown as the text it is, as OpenHands' chat shows it: no styles (a <style> would restyle the
// whole application), no forms or controls (a "re-enter your password" form). Markdown's own
// images load only when the reader asks (an image's address is a channel out: it could carry
// what the agent saw to any host). Links open in a new tab, without a handle on this one.
// DOMPurify stays behind all of it.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);

const parser = new Marked({ gfm: true, breaks: true, renderer: { html: ({ text }) => escapeHtml(text) } });

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const SANITIZE = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'optgroup',
    'label',
    'fieldset',
    'datalist',
    'output',
    'dialog',
    'video',
    'audio',
    'source',
    'picture',
    'track',
  ],
  FORBID_ATTR: ['style', 'class', 'id', 'srcset', 'background', 'poster', 'ping', 'formaction', 'action'],
};

/** Which of a message's images to show, and what stands in for the others. */
export interface MessageImages {
  /** The addresses the reader chose to load. */
  shown: ReadonlySet<string>;
  /** The text of the button standing in for an image not loaded: its description and host. */
  placeholder: (alt: string, host: string) => string;
  /** The class of that button. */
  placeholderClass: string;
}

const hostOf = (src: string) => {
  try {
    return new URL(src, window.location.href).host;
  } catch {
    return src;
  }
};

/** A message's markdown as sanitised HTML (GitHub-flavoured, line breaks kept). */
export function markdownToHtml(markdown: string, images: MessageImages): string {
  const fragment = DOMPurify.sanitize(parser.parse(markdown, { async: false }), {
    ...SANITIZE,
    RETURN_DOM_FRAGMENT: true,
  });
  for (const image of [...fragment.querySelectorAll('img')]) {
    const src = image.getAttribute('src') ?? '';
    // An image written into the message itself loads from nowhere.
    if (src.startsWith('data:image/') || images.shown.has(src)) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = images.placeholderClass;
    button.dataset.imageSrc = src;
    button.textContent = images.placeholder(image.getAttribute('alt') ?? '', hostOf(src));
    image.replaceWith(button);
  }
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}
