/**
 * The React demo: `<StoreUploader>` from `src/react/` (the kit's `store-upload-kit/react` wrappers) with typed event
 * props, and the IDs of what it uploaded, kept in React state.
 */
import { useState } from 'react';
import { StoreUploader } from '../../src/react/index.ts';
import type { StoreUploader as StoreUploaderElement } from '../../src/elements/index.ts';
import type { DemoConfig } from '../config.ts';

/** The page: a heading, the uploader and the uploaded IDs. */
export function App({ config }: { config: DemoConfig }) {
  const [ids, setIds] = useState<string[]>([]);
  const [rejected, setRejected] = useState<string[]>([]);
  return (
    <main>
      <h1>store-upload-kit in React</h1>
      <p>
        Uploading to <code>{config.serviceUrl}</code> with <code>{config.token}</code>.{' '}
        <a href="../">Back to the main demo</a>
      </p>
      <StoreUploader
        baseUrl={config.serviceUrl}
        token={config.token}
        onChange={(event) => setIds((event.target as StoreUploaderElement).value)}
        onFilesReject={(event) => setRejected(event.detail.files.map((f) => f.relativePath))}
      />
      <h2>Uploaded file IDs</h2>
      {ids.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul aria-label="Uploaded file IDs">
          {ids.map((id) => (
            <li key={id}>
              <code>{id}</code>
            </li>
          ))}
        </ul>
      )}
      {rejected.length > 0 && <p role="alert">Not accepted: {rejected.join(', ')}</p>}
    </main>
  );
}
