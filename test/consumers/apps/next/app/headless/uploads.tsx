'use client';
// The kit with no element: the app's own list, input and buttons over `store-upload-kit/react/hooks`. Rendered on the
// server with the empty snapshot; in the browser one uploader serves both pages of /headless, so a client-side
// route change keeps showing the upload.
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useFileInput, useUploader, useUploads, type TaskView } from 'store-upload-kit/react/hooks';

function stateText(task: TaskView): string {
  switch (task.state) {
    case 'done':
      return `done ${task.file.id}`;
    case 'failed':
      return `failed: ${task.error.code}`;
    case 'retrying':
      return `retrying (${task.retry.cause})`;
    default:
      return task.state;
  }
}

export function HeadlessUploads({ serviceUrl, token, title, other }: { serviceUrl: string; token: string; title: string; other: string }) {
  // A new token getter on every render: the uploader keys by the serialisable options and asks the latest one.
  const store = useUploader({ baseUrl: serviceUrl, getAccessToken: () => token, chunkSize: 256 * 1024, resumableThreshold: 0 });
  const uploads = useUploads(store);
  const input = useFileInput({ store });
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const query = `?service=${encodeURIComponent(serviceUrl)}&token=${encodeURIComponent(token)}`;
  return (
    <section>
      <h1>{title}</h1>
      <input {...input.inputProps} aria-label="Choose files" />
      <ul id="uploads" data-count={uploads.tasks.length} data-ready={ready ? 'yes' : undefined}>
        {uploads.tasks.map((t) => (
          <li key={t.id} data-name={t.name} data-state={t.state} data-file-id={t.state === 'done' ? t.file.id : undefined}>
            {t.name}: {stateText(t)}
            <button type="button" onClick={() => store.pause(t.id)}>Pause</button>
            <button type="button" onClick={() => store.resume(t.id)}>Resume</button>
          </li>
        ))}
      </ul>
      <Link href={`${other}${query}`}>Other page</Link>
    </section>
  );
}
