import { fromCallback, type EventObject } from 'xstate';
import type { UploadReport, UploadRequest, UploadResult } from '../../../machines/upload.ts';

// POST upload-files as multipart with XMLHttpRequest, whose upload events report progress
// (fetch cannot). Stopping the actor aborts the request.

export interface UploadTarget {
  conversationId: string;
  /** The bearer token, when signed in. */
  readToken: () => string | null;
  createRequest?: () => XMLHttpRequest;
}

export function uploadFormData(request: UploadRequest): FormData {
  const form = new FormData();
  for (const file of request.files) form.append('files', file as File);
  if (request.message !== null && request.message.trim() !== '') {
    form.append('message_content', request.message);
    form.append('send_message', 'true');
  }
  return form;
}

function isUploadResult(value: unknown): value is UploadResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as UploadResult).uploaded_files) &&
    Array.isArray((value as UploadResult).skipped_files)
  );
}

/** The upload machine's `uploadFiles` actor for one conversation. */
export function uploadFilesActor(target: UploadTarget) {
  return fromCallback<EventObject, UploadRequest, UploadReport>(({ input, sendBack }) => {
    const xhr = target.createRequest?.() ?? new XMLHttpRequest();
    xhr.open('POST', `/api/conversations/${encodeURIComponent(target.conversationId)}/upload-files`);
    const token = target.readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (progress) => {
      if (progress.lengthComputable)
        sendBack({ type: 'UPLOAD_PROGRESS', progress: { loaded: progress.loaded, total: progress.total } });
    });
    xhr.addEventListener('load', () => {
      const body: unknown = xhr.response;
      sendBack(
        xhr.status >= 200 && xhr.status < 300 && isUploadResult(body)
          ? { type: 'UPLOAD_DONE', result: body }
          : { type: 'UPLOAD_FAILED' },
      );
    });
    xhr.addEventListener('error', () => sendBack({ type: 'UPLOAD_FAILED' }));
    xhr.send(uploadFormData(input));
    return () => {
      if (xhr.readyState !== XMLHttpRequest.DONE) xhr.abort();
    };
  });
}
