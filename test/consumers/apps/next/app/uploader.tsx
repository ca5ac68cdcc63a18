'use client';
// The kit's React wrapper in a client component: rendered on the server as a plain <store-uploader> tag, upgraded
// and given its properties in the browser.
import { useState } from 'react';
import { StoreUploader } from 'store-upload-kit/react';

export function Uploader({ serviceUrl, token }: { serviceUrl: string; token: string }) {
  const [ids, setIds] = useState<readonly string[]>([]);
  const [rejected, setRejected] = useState<string[]>([]);
  return (
    <>
      <StoreUploader
        baseUrl={serviceUrl}
        token={token}
        onChange={(event) => setIds(event.currentTarget.value)}
        onFilesReject={(event) => setRejected(event.detail.files.map((f) => f.relativePath))}
      />
      {rejected.length > 0 && <p role="alert">Not accepted: {rejected.join(', ')}</p>}
      <p>
        Uploaded: <output id="ids">{ids.join(' ')}</output>
      </p>
    </>
  );
}
