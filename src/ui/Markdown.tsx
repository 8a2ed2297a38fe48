import { useEffect, useMemo, useState } from 'react';
import { afterNextPaint } from './after-paint.ts';
import * as styles from './markdown.css.ts';

// marked and DOMPurify are half of the chat panel's code (the DevOps tab uses them too), so they load after the first paint,
// which shows each message's text as it is; the page's first load does not wait for them.
type RenderMarkdown = (markdown: string) => string;
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

/** A message's markdown as sanitised HTML; its plain text (line breaks kept) until the renderer has loaded. */
export function Markdown({ text }: { text: string }) {
  const [render, setRender] = useState(() => loaded);
  useEffect(() => {
    if (render) return;
    afterNextPaint(() => {
      void loadRenderer().then((renderer) => {
        if (renderer) setRender(() => renderer);
      });
    });
  }, [render]);
  const html = useMemo(() => render?.(text) ?? null, [render, text]);
  if (html === null) return <div className={styles.plainText}>{text}</div>;
  return <div className={styles.markdown} dangerouslySetInnerHTML={{ __html: html }} />;
}
