import chardet from 'chardet';
import iconv from 'iconv-lite';

// How the agent's editor reads and writes a workspace file without damaging it: the text in the
// file's own encoding (UTF-8, with or without a byte-order mark, or what chardet finds, e.g.
// windows-1251 or ISO-8859-1), CRLF line ends shown and matched as LF and written back as CRLF,
// binary files and files over the limit refused before anything is decoded.

/** The editor's size limit, as OpenHands': larger files are for head, sed or grep. */
export const EDITOR_FILE_LIMIT_BYTES = 10 * 1024 * 1024;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** How much of a file is looked at for NUL bytes, as git and grep do. */
const BINARY_SNIFF_BYTES = 8_000;

/** How a file's text is stored, to write it back the same way. */
export interface TextFormat {
  encoding: string;
  bom: boolean;
  crlf: boolean;
}

export interface TextFile {
  /** With LF line ends. */
  text: string;
  format: TextFormat;
}

export const UTF8_LF: TextFormat = { encoding: 'utf-8', bom: false, crlf: false };

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The file's text and format; throws the message the model should read for a binary file. */
export function decodeText(bytes: Buffer, shownPath: string): TextFile {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0))
    throw new Error(
      `The file ${shownPath} appears to be binary; the editor works on text files. Inspect it with execute_bash (e.g. \`file\`, \`xxd | head\`).`,
    );
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  const detected = isUtf8(body) ? 'utf-8' : chardet.detect(body);
  // An encoding iconv does not know is read byte for byte, which writes back exactly.
  const encoding = detected && iconv.encodingExists(detected) ? detected.toLowerCase() : 'latin1';
  const raw = iconv.decode(body, encoding, { stripBOM: false });
  // CRLF only when every line ends so: a file of mixed ends is left as it is.
  const crlf = raw.includes('\r\n') && !/(^|[^\r])\n/.test(raw);
  return { text: crlf ? raw.replaceAll('\r\n', '\n') : raw, format: { encoding, bom, crlf } };
}

/** The text in the file's format; throws when the encoding cannot hold some of it (iconv would write '?'). */
export function encodeText(text: string, format: TextFormat): Buffer {
  const stored = format.crlf ? text.replaceAll('\n', '\r\n') : text;
  const body = iconv.encode(stored, format.encoding);
  if (format.encoding !== 'utf-8' && iconv.decode(body, format.encoding) !== stored)
    throw new Error(
      `The new text has characters that the file's encoding (${format.encoding}) cannot hold; nothing was written. Use characters of that encoding, or convert the file with iconv first.`,
    );
  return format.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}
