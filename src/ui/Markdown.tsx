import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { afterNextPaint } from './after-paint.ts';
import type { markdownToHtml } from './markdown.ts';
import * as styles from './markdown.css.ts';

// marked and DOMPurify are half of the chat panel's code (the DevOps tab uses them too), so they load after the first paint,
// which shows each message's text as it is; the page's first load does not wait for them.
type RenderMarkdown = typeof markdownToHtml;
let loaded: RenderMarkdown | null = null;
let loading: Promise<RenderMarkdown | null> | null = null;

/** The renderer, or null when its download failed (the text stays plain; the next message to mount tries again). */
function loadRenderer(): Promise<RenderMarkdown | null> {
  loading ??= import('./markdown.ts').then(
    (module) => (loaded = module.markdownToHtml),
    () => (loading = null),
  );
  return loading;
}

/**
 * A message's markdown as sanitised HTML; its plain text (line breaks kept) until the renderer
 * has loaded. Its images wait behind a button each until the reader asks for them.
 */
export function Markdown({ text }: { text: string }) {
  const { t } = useTranslation('common');
  const [render, setRender] = useState(() => loaded);
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (render) return;
    afterNextPaint(() => {
      void loadRenderer().then((renderer) => {
        if (renderer) setRender(() => renderer);
      });
    });
  }, [render]);
  const html = useMemo(
    () =>
      render?.(text, {
        shown,
        placeholderClass: styles.imagePlaceholder,
        placeholder: (alt, host) =>
          alt ? t('markdown.showNamedImage', { alt, host }) : t('markdown.showImage', { host }),
      }) ?? null,
    [render, text, shown, t],
  );
  const showImage = (event: MouseEvent) => {
    const src = (event.target as Element).closest('button[data-image-src]')?.getAttribute('data-image-src');
    if (src !== null && src !== undefined) setShown((before) => new Set(before).add(src));
  };
  if (html === null) return <div className={styles.plainText}>{text}</div>;
  // The clicks are the placeholders' own: each is a button, reached and pressed by keyboard too.
  return <div className={styles.markdown} onClick={showImage} dangerouslySetInnerHTML={{ __html: html }} />;
}
