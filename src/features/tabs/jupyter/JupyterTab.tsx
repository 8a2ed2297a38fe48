import { pythonLanguage } from '@codemirror/lang-python';
import { classHighlighter, highlightCode } from '@lezer/highlight';
import { memo, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationStream } from '../../../realtime/types.ts';
import * as styles from '../tabs.css.ts';
import { useStreamSelector } from '../../../realtime/use-stream-selector.ts';
import { highlighted } from './jupyter.css.ts';
import { createNotebookSelector, type NotebookCell } from './notebook-cells.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface JupyterTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

/** Python source as highlighted spans. */
function PythonCode({ code }: { code: string }) {
  const nodes = useMemo(() => {
    const parts: ReactNode[] = [];
    highlightCode(
      code,
      pythonLanguage.parser.parse(code),
      classHighlighter,
      (text, classes) =>
        parts.push(
          classes ? (
            <span key={parts.length} className={classes}>
              {text}
            </span>
          ) : (
            text
          ),
        ),
      () => parts.push('\n'),
    );
    return parts;
  }, [code]);
  return <pre className={`${styles.code} ${highlighted}`}>{nodes}</pre>;
}

const Cell = memo(function Cell({ cell }: { cell: NotebookCell }) {
  const { t } = useTranslation('tabs');
  if (cell.type === 'input') {
    return (
      <section className={styles.cell} aria-label={t('jupyter.input')}>
        <div className={styles.cellLabel}>{t('jupyter.input')}</div>
        <PythonCode code={cell.code} />
      </section>
    );
  }
  return (
    <section className={styles.cell} aria-label={t('jupyter.output')}>
      <div className={styles.cellLabel}>{t('jupyter.output')}</div>
      {cell.text !== '' && <pre className={styles.code}>{cell.text}</pre>}
      {cell.imageUrls.map((url, index) => (
        <img key={url} className={styles.outputImage} src={url} alt={t('jupyter.image', { number: index + 1 })} />
      ))}
    </section>
  );
});

/** The notebook: the agent's Python code as input cells and what it printed or drew as output cells. */
export function JupyterTab({ stream }: JupyterTabProps) {
  const { t } = useTranslation('tabs');
  const [selectCells] = useState(createNotebookSelector);
  const cells = useStreamSelector(stream, selectCells);
  return (
    <div className={styles.tab} aria-label={t('jupyter.label')} role="region">
      <div className={styles.body}>
        {cells.length === 0 ? (
          <p className={styles.message}>{t('jupyter.empty')}</p>
        ) : (
          cells.map((cell) => <Cell key={cell.id} cell={cell} />)
        )}
      </div>
    </div>
  );
}
