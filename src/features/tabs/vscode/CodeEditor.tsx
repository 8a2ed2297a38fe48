import { EditorView, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { languageExtension } from '../code-language.ts';
import * as styles from '../tabs.css.ts';

export interface CodeEditorProps {
  path: string;
  /** The text the editor starts with (its unsaved content); later edits flow out through onChange. */
  initialContent: string;
  label: string;
  onChange: (content: string) => void;
  onSave: () => void;
}

/** CodeMirror 6 on one file, with the file's language; Mod-s saves. Mount it keyed by path. */
export function CodeEditor({ path, initialContent, label, onChange, onSave }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onChange, onSave });
  useEffect(() => {
    handlers.current = { onChange, onSave };
  }, [onChange, onSave]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let view: EditorView | null = null;
    let cancelled = false;
    void languageExtension(path).then((language) => {
      if (cancelled) return;
      view = new EditorView({
        doc: initialContent,
        parent: element,
        extensions: [
          basicSetup,
          language,
          keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (handlers.current.onSave(), true) }]),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
          }),
        ],
      });
    });
    return () => {
      cancelled = true;
      view?.destroy();
    };
    // The editor is created once per file; its own state holds the text from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);

  return <div ref={host} className={styles.codeMirrorHost} />;
}
