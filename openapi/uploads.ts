// The spec's rules for uploaded files (§5, §9), shared by the browser's checks and the server's,
// which decides: the accepted kinds of file and the size limits.

/** 200 MB per file and 200 MB in total. */
export const UPLOAD_LIMIT_BYTES = 200 * 1024 * 1024;

export const ARCHIVE_EXTENSIONS = ['zip', 'tar', 'tar.gz', 'rar', '7z'] as const;
export const TEXT_EXTENSIONS = [
  'js',
  'ts',
  'tsx',
  'jsx',
  'py',
  'java',
  'cpp',
  'c',
  'cs',
  'php',
  'rb',
  'go',
  'rs',
  'swift',
  'kt',
  'dart',
  'vue',
  'html',
  'css',
  'scss',
  'sass',
  'json',
  'xml',
  'yaml',
  'yml',
  'md',
  'txt',
] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'svg'] as const;
