import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languageExtension } from '../code-language.ts';
import * as styles from '../tabs.css.ts';
import { diffHeight } from './file-changes.ts';

const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false), lineNumbers()];

/** A side-by-side, read-only diff of one file. */
export function DiffView({ path, original, modified }: { path: string; original: string; modified: string }) {
  const { t } = useTranslation('tabs');
  const host = useRef<HTMLDivElement>(null);
  const originalLabel = t('changes.diffOriginal', { path });
  const modifiedLabel = t('changes.diffModified', { path });
  const [contentHeight, setContentHeight] = useState<number | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let view: MergeView | null = null;
    let cancelled = false;
    void languageExtension(path).then((language) => {
      if (cancelled) return;
      view = new MergeView({
        // Each side is a text box for assistive technology: it needs a name.
        a: {
          doc: original,
          extensions: [...readOnly, language, EditorView.contentAttributes.of({ 'aria-label': originalLabel })],
        },
        b: {
          doc: modified,
          extensions: [...readOnly, language, EditorView.contentAttributes.of({ 'aria-label': modifiedLabel })],
        },
        parent: element,
        collapseUnchanged: { margin: 3, minSize: 6 },
      });
      const measured = view;
      requestAnimationFrame(() => {
        if (!cancelled) setContentHeight(Math.max(measured.a.contentHeight, measured.b.contentHeight));
      });
    });
    return () => {
      cancelled = true;
      view?.destroy();
    };
  }, [path, original, modified, originalLabel, modifiedLabel]);

  return <div ref={host} className={styles.diff} style={{ height: diffHeight(contentHeight) }} />;
}
